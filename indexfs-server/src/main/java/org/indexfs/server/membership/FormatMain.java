package org.indexfs.server.membership;

import java.util.HashMap;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.indexfs.common.ClusterConfig;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.server.security.HadoopSettings;
import org.indexfs.server.security.ServerZooKeeper;

/**
 * {@code bin/indexfs format --zookeeper HOST:PORT [--cluster NAME] --slots N [--conf indexfs-site.xml] [-D key=value]}.
 * It writes as the servers do (their digest, or SASL with Kerberos, from the same settings), so the
 * cluster's nodes are theirs; it prints the identity clients may be told to expect.
 */
public final class FormatMain {
  private FormatMain() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> conf = new HashMap<>();
    String zk = null;
    String cluster = null;
    int slots = -1;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--zookeeper" -> zk = args[++i];
        case "--cluster" -> cluster = args[++i];
        case "--slots" -> slots = Integer.parseInt(args[++i]);
        case "--conf" -> {
          org.apache.hadoop.conf.Configuration c = new org.apache.hadoop.conf.Configuration(false);
          c.addResource(new org.apache.hadoop.fs.Path(args[++i]));
          c.forEach(e -> conf.put(e.getKey(), e.getValue()));
        }
        case "-D" -> {
          String[] kv = args[++i].split("=", 2);
          conf.put(kv[0], kv.length > 1 ? kv[1] : "");
        }
        default -> usage("unknown argument " + args[i]);
      }
    }
    if (slots < 1) {
      usage("--slots N is required");
    }
    zk = zk != null ? zk : IndexFsConfig.ZOOKEEPER_QUORUM.get(conf);
    cluster = cluster != null ? cluster : IndexFsConfig.CLUSTER_NAME.get(conf);
    try {
      ServerZooKeeper servers = ServerZooKeeper.of(conf, HadoopSettings.of(conf), IndexFsConfig.SERVER_BIND_HOST.get(conf));
      try (CuratorFramework curator = servers.connect(zk, 30_000)) {
        ClusterConfig config = ClusterFormat.format(curator, cluster, slots);
        servers.checkCluster(curator, cluster);
        System.out.println("Cluster '" + cluster + "' at " + zk + " is formatted with " + config.slots() + " slot(s).");
        System.out.println("Clients may check its slot records with " + IndexFsConfig.SECURITY_ZOOKEEPER_SERVER_ID.name()
            + "=" + servers.id());
      }
    } catch (java.io.IOException e) {
      System.err.println(e.getMessage());
      System.exit(1);
    }
  }

  private static void usage(String problem) {
    System.err.println(problem + "\nUsage: indexfs format --zookeeper HOST:PORT [--cluster NAME] --slots N"
        + " [--conf indexfs-site.xml] [-D key=value ...]");
    System.exit(2);
  }
}
