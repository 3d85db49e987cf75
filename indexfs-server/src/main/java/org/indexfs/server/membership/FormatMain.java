package org.indexfs.server.membership;

import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.indexfs.common.ClusterConfig;
import org.indexfs.common.IndexFsConfig;

/** {@code bin/indexfs format --zookeeper HOST:PORT [--cluster NAME] --slots N}. */
public final class FormatMain {
  private FormatMain() {}

  public static void main(String[] args) throws Exception {
    String zk = IndexFsConfig.ZOOKEEPER_QUORUM.defaultValue();
    String cluster = IndexFsConfig.CLUSTER_NAME.defaultValue();
    int slots = -1;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--zookeeper" -> zk = args[++i];
        case "--cluster" -> cluster = args[++i];
        case "--slots" -> slots = Integer.parseInt(args[++i]);
        default -> usage("unknown argument " + args[i]);
      }
    }
    if (slots < 1) {
      usage("--slots N is required");
    }
    try (CuratorFramework curator = CuratorFrameworkFactory.newClient(zk, new ExponentialBackoffRetry(200, 5))) {
      curator.start();
      if (!curator.blockUntilConnected(30, TimeUnit.SECONDS)) {
        System.err.println("Cannot reach ZooKeeper at " + zk);
        System.exit(1);
      }
      ClusterConfig config = ClusterFormat.format(curator, cluster, slots);
      System.out.println("Cluster '" + cluster + "' at " + zk + " is formatted with " + config.slots() + " slot(s).");
    } catch (java.io.IOException e) {
      System.err.println(e.getMessage());
      System.exit(1);
    }
  }

  private static void usage(String problem) {
    System.err.println(problem + "\nUsage: indexfs format --zookeeper HOST:PORT [--cluster NAME] --slots N");
    System.exit(2);
  }
}
