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

  /**
   * {@code bin/indexfs server --slot 2 --dir /data/slot-2 --zookeeper zk:2181 --cluster prod [--standby]},
   * or {@code --slots 0,2,4 --dir /data} for several slots in one process.
   */
  private static final Map<String, String> SHORTHANDS = new java.util.LinkedHashMap<>(Map.of(
      "--slot", IndexFsConfig.SERVER_SLOT.name(),
      "--slots", IndexFsConfig.SERVER_SLOTS.name(),
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

  /**
   * Each slot's settings when the process runs several ({@code indexfs.server.slots}): its slot, its
   * directory below the process's, and fixed ports shifted by its place in the list. One slot: the
   * settings as they are.
   */
  static java.util.List<Map<String, String>> perSlot(Map<String, String> conf) {
    String list = IndexFsConfig.SERVER_SLOTS.get(conf).trim();
    if (list.isEmpty()) {
      return java.util.List.of(conf);
    }
    java.util.List<Map<String, String>> out = new java.util.ArrayList<>();
    java.util.Set<Integer> seen = new java.util.HashSet<>();
    String dir = IndexFsConfig.SERVER_DIR.get(conf);
    int port = IndexFsConfig.SERVER_PORT.get(conf);
    int http = IndexFsConfig.HTTP_PORT.get(conf);
    for (String part : list.split(",")) {
      int slot;
      try {
        slot = Integer.parseInt(part.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(IndexFsConfig.SERVER_SLOTS.name() + " lists slot numbers, got '" + part.trim() + "'");
      }
      if (slot < 0 || !seen.add(slot)) {
        throw new IllegalArgumentException(IndexFsConfig.SERVER_SLOTS.name() + ": slot " + slot
            + (slot < 0 ? " is negative" : " is listed twice"));
      }
      int i = out.size();
      Map<String, String> c = new HashMap<>(conf);
      c.remove(IndexFsConfig.SERVER_SLOTS.name());
      c.put(IndexFsConfig.SERVER_SLOT.name(), String.valueOf(slot));
      if (!dir.isEmpty()) {
        c.put(IndexFsConfig.SERVER_DIR.name(), java.nio.file.Path.of(dir, "slot-" + slot).toString());
      }
      if (port > 0) {
        c.put(IndexFsConfig.SERVER_PORT.name(), String.valueOf(port + i));
      }
      if (http > 0) {
        c.put(IndexFsConfig.HTTP_PORT.name(), String.valueOf(http + i));
      }
      out.add(c);
    }
    return out;
  }

  private static void put(Map<String, String> conf, String kv) {
    int eq = kv.indexOf('=');
    if (eq <= 0) {
      throw new IllegalArgumentException("Expected key=value, got " + kv);
    }
    conf.put(kv.substring(0, eq), kv.substring(eq + 1));
  }
}
