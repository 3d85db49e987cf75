package org.indexfs.server.local;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code bin/indexfs local [--work-dir DIR] [--zk-port N] [--hdfs] [--servers N] [--slots N] [-D key=value ...]}: runs the
 * embedded cluster until Ctrl-C and writes the client configuration that {@code bin/indexfs fs}
 * uses. {@code --hdfs} keeps large files' objects on a real HDFS (a MiniDFSCluster with one
 * NameNode and three DataNodes under the work directory) instead of a local directory.
 */
public final class LocalMain {
  private LocalMain() {}

  /**
   * Something started beside the cluster once it runs ({@code bin/indexfs local}'s NameNode-protocol
   * gateway, from the gateway module): the lines it adds to the banner, and its stop, which runs
   * before the cluster's.
   */
  public interface Companion {
    Started start(LocalCluster cluster) throws IOException;

    record Started(java.util.List<String> banner, AutoCloseable stop) {}
  }

  public static void main(String[] args) throws Exception {
    run(args, null);
  }

  /** Runs the embedded cluster as {@link #main} does, with {@code companion} (may be null) beside it. */
  public static void run(String[] args, Companion companion) throws Exception {
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
    // Neither: the cluster the work directory holds, as it was formatted (one slot when new).
    builder = LocalCluster.builder(work).zookeeperPort(zkPort).hdfs(hdfs);
    if (slots > 0 || servers > 0) {
      int formatted = slots > 0 ? slots : servers;
      builder.slots(formatted).servers(servers > 0 ? servers : formatted);
    }
    // A development cluster lets the user who runs it act for anyone from this machine (the replay
    // tool's proxy users), as a NameNode with hadoop.proxyuser.<you>.hosts=localhost would; -D overrides.
    String me = System.getProperty("user.name");
    builder.set("hadoop.proxyuser." + me + ".hosts", "127.0.0.1").set("hadoop.proxyuser." + me + ".groups", "*");
    for (String[] kv : settings) {
      builder.set(kv[0], kv.length > 1 ? kv[1] : "");
    }
    // Ctrl-C and kill stop the cluster before the JVM begins to shut down: HDFS's DataNodes
    // unregister shutdown hooks while they stop, which a JVM already shutting down refuses
    // ("IllegalStateException: Shutdown in progress"). The hook only covers other ways out. Both
    // are in place before anything starts, so a Ctrl-C during startup stops cleanly too.
    AtomicReference<LocalCluster> running = new AtomicReference<>();
    AtomicReference<AutoCloseable> beside = new AtomicReference<>();
    AtomicBoolean stopRequested = new AtomicBoolean();
    CountDownLatch stopped = new CountDownLatch(1);
    Runnable stop = () -> {
      stopRequested.set(true);
      AutoCloseable b = beside.getAndSet(null);
      if (b != null) {
        try {
          b.close();
        } catch (Exception e) {
          System.err.println("indexfs local: stopping " + b + ": " + e);
        }
      }
      LocalCluster c = running.getAndSet(null);
      if (c != null) {
        System.out.println("\nStopping the embedded IndexFS cluster...");
        c.close();
      }
      stopped.countDown();
    };
    for (String signal : new String[] {"INT", "TERM"}) {
      sun.misc.Signal.handle(new sun.misc.Signal(signal), s -> new Thread(stop, "indexfs-local-stop").start());
    }
    Runtime.getRuntime().addShutdownHook(new Thread(stop, "indexfs-local-shutdown"));
    LocalCluster cluster;
    try {
      cluster = builder.start();
    } catch (IOException | RuntimeException e) {
      // A startup mistake (a slot count the work directory was not formatted with, a busy port...)
      // gets one line, not a stack trace; the log above has the details.
      System.err.println("indexfs local: " + e.getMessage());
      System.exit(1);
      return;
    }
    running.set(cluster);
    if (stopRequested.get()) {
      stop.run();
      System.exit(0);
    }
    Path confFile = cluster.writeClientConf(cluster.workDir().resolve("conf"));
    Companion.Started extra = null;
    if (companion != null) {
      try {
        extra = companion.start(cluster);
        beside.set(extra.stop());
      } catch (IOException | RuntimeException e) {
        System.err.println("indexfs local: " + e.getMessage());
        stop.run();
        System.exit(1);
        return;
      }
    }

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
    if (cluster.zookeeperDigestFile() != null) {
      // The servers' cluster secret: more servers joining this cluster need it (never clients).
      System.out.println("  servers' ZooKeeper digest: in " + cluster.zookeeperDigestFile()
          + " (bin/indexfs server|format: -D indexfs.security.zookeeper.digest=<its content>)");
    }
    if (extra != null) {
      extra.banner().forEach(System.out::println);
    }
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
    System.exit(0);
  }
}
