package org.indexfs.server;

import java.util.HashMap;
import java.util.Map;
import org.indexfs.common.IndexFsConfig;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * Command-line configuration of server processes: {@code --conf <indexfs-site.xml>} (Hadoop XML
 * format, like every Hadoop daemon) and {@code -D key=value} overrides, later ones winning.
 */
final class ServerConf {
  private ServerConf() {}

  /** {@code bin/indexfs server --slot 2 --dir /data/slot-2 --zookeeper zk:2181 --cluster prod [--standby]}. */
  private static final Map<String, String> SHORTHANDS = new java.util.LinkedHashMap<>(Map.of(
      "--slot", IndexFsConfig.SERVER_SLOT.name(),
      "--dir", IndexFsConfig.SERVER_DIR.name(),
      "--zookeeper", IndexFsConfig.ZOOKEEPER_QUORUM.name(),
      "--cluster", IndexFsConfig.CLUSTER_NAME.name(),
      "--data-uri", IndexFsConfig.DATA_URI.name()));

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
      } else if (a.equals("--standby")) {
        conf.put(IndexFsConfig.SERVER_STANDBY.name(), "true");
      } else if (SHORTHANDS.containsKey(a) && i + 1 < args.length) {
        conf.put(SHORTHANDS.get(a), args[++i]);
      } else if (a.equals("-D") && i + 1 < args.length) {
        put(conf, args[++i]);
      } else if (a.startsWith("-D") && a.length() > 2) {
        put(conf, a.substring(2));
      } else {
        throw new IllegalArgumentException("Unknown argument: " + a
            + " (expected --conf <file>, -D key=value, --standby, or " + String.join(" / ", SHORTHANDS.keySet()) + " <value>)");
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
