package org.indexfs.server;

import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * Command-line configuration of server processes: {@code --conf <indexfs-site.xml>} (Hadoop XML
 * format, like every Hadoop daemon) and {@code -D key=value} overrides, later ones winning.
 */
final class ServerConf {
  private ServerConf() {}

  static Map<String, String> load(String[] args) {
    Map<String, String> conf = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--conf") && i + 1 < args.length) {
        Configuration c = new Configuration(false);
        c.addResource(new Path(args[++i]));
        for (Map.Entry<String, String> e : c) {
          conf.put(e.getKey(), e.getValue());
        }
      } else if (a.equals("-D") && i + 1 < args.length) {
        put(conf, args[++i]);
      } else if (a.startsWith("-D") && a.length() > 2) {
        put(conf, a.substring(2));
      } else {
        throw new IllegalArgumentException("Unknown argument: " + a
            + " (expected --conf <file> or -D key=value)");
      }
    }
    return conf;
  }

  private static void put(Map<String, String> conf, String kv) {
    int eq = kv.indexOf('=');
    if (eq <= 0) {
      throw new IllegalArgumentException("Expected key=value, got " + kv);
    }
    conf.put(kv.substring(0, eq), kv.substring(eq + 1));
  }
}
