package org.indexfs.server.local;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * {@code bin/indexfs local [--work-dir DIR] [--zk-port N] [--hdfs] [--servers N] [--slots N] [-D key=value ...]}: runs the
 * embedded cluster until Ctrl-C and writes the client configuration that {@code bin/indexfs fs}
 * uses. {@code --hdfs} keeps large files' objects on a real HDFS (a MiniDFSCluster with one
 * NameNode and three DataNodes under the work directory) instead of a local directory.
 */
public final class LocalMain {
  private LocalMain() {}

  public static void main(String[] args) throws Exception {
    Path work = Path.of(System.getProperty("indexfs.local.dir", "indexfs-work"));
    int zkPort = 0;
    boolean hdfs = false;
    int servers = 0;
    int slots = 0;
    LocalCluster.Builder builder = null;
    java.util.List<String[]> settings = new java.util.ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--work-dir" -> work = Path.of(args[++i]);
        case "--zk-port" -> zkPort = Integer.parseInt(args[++i]);
        case "--hdfs" -> hdfs = true;
        case "--servers" -> servers = Integer.parseInt(args[++i]);
        case "--slots" -> slots = Integer.parseInt(args[++i]);
        case "-D" -> settings.add(args[++i].split("=", 2));
        default -> {
          System.err.println("Unknown argument " + args[i]
              + "\nUsage: indexfs local [--work-dir DIR] [--zk-port N] [--hdfs] [--servers N] [--slots N] [-D key=value ...]");
          System.exit(2);
        }
      }
    }
    // --slots N formats N slots; --servers M runs slots 0..M-1 here (the rest: bin/indexfs server --slot k).
    int formatted = Math.max(1, slots > 0 ? slots : servers);
    builder = LocalCluster.builder(work).zookeeperPort(zkPort).hdfs(hdfs).slots(formatted)
        .servers(servers > 0 ? servers : formatted);
    // A development cluster lets the user who runs it act for anyone from this machine (the replay
    // tool's proxy users), as a NameNode with hadoop.proxyuser.<you>.hosts=localhost would; -D overrides.
    String me = System.getProperty("user.name");
    builder.set("hadoop.proxyuser." + me + ".hosts", "127.0.0.1").set("hadoop.proxyuser." + me + ".groups", "*");
    for (String[] kv : settings) {
      builder.set(kv[0], kv.length > 1 ? kv[1] : "");
    }
    LocalCluster cluster = builder.start();
    Path confFile = cluster.writeClientConf(cluster.workDir().resolve("conf"));
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      System.out.println("\nStopping the embedded IndexFS cluster...");
      cluster.close();
      stopped.countDown();
    }, "indexfs-local-shutdown"));

    System.out.println("IndexFS embedded cluster is running.");
    System.out.println("  work directory : " + cluster.workDir());
    System.out.println("  ZooKeeper      : " + cluster.zookeeperConnect());
    for (int slot = 0; slot < cluster.serverCount(); slot++) {
      System.out.println("  metadata server: slot " + slot + " at " + cluster.server(slot).address());
    }
    if (cluster.hdfs() != null) {
      System.out.println("  HDFS           : " + cluster.hdfs().uri() + " (NameNode; " + LocalHdfs.DEFAULT_DATANODES
          + " DataNodes, storage under " + cluster.workDir().resolve("hdfs") + ")");
    }
    System.out.println("  data objects   : " + cluster.dataUri());
    System.out.println("Client configuration (written to " + confFile + "):");
    for (Map.Entry<String, String> e : cluster.clientConf().entrySet()) {
      System.out.println("  " + e.getKey() + "=" + e.getValue());
    }
    System.out.println("In another terminal:  bin/indexfs fs -ls /");
    if (cluster.hdfs() != null) {
      System.out.println("Side by side with HDFS:  bin/indexfs replay AUDIT-LOG --target " + cluster.defaultFs()
          + " --compare " + cluster.hdfs().uri() + "/");
    }
    System.out.println("Press Ctrl-C to stop.");
    System.out.flush();
    stopped.await();
  }
}
