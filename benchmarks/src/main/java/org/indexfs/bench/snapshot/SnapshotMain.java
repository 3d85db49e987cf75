package org.indexfs.bench.snapshot;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.indexfs.bench.replay.ProgressBar;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.hadoop.IndexFileSystem;
import org.indexfs.server.local.LocalCluster;
import org.indexfs.server.local.LocalHdfs;

/**
 * {@code bin/indexfs bench snapshot}: what a snapshot costs (issue 17). Loads a subtree of N entries
 * through bulk insertion (directories of 1,000 files), then takes snapshots of it while a writer
 * creates files elsewhere: the time to take one, the longest create the writer waited meanwhile
 * (the barrier's pause), listing and stat in the snapshot, and the time to delete it. HDFS (one
 * DataNode) is the data tier, as snapshots need; every slot in this process.
 */
public final class SnapshotMain {
  public static final String USAGE = "indexfs bench snapshot [--entries N] [--slots S] [--rounds R] [--work DIR]";

  private SnapshotMain() {}

  public static void main(String[] args) throws Exception {
    long entries = 1_000_000;
    int slots = 1;
    int rounds = 3;
    Path work = Path.of("bench-report/snapshot-work");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--entries" -> entries = Long.parseLong(args[++i]);
        case "--slots" -> slots = Integer.parseInt(args[++i]);
        case "--rounds" -> rounds = Integer.parseInt(args[++i]);
        case "--work" -> work = Path.of(args[++i]);
        default -> {
          System.err.println("Usage: " + USAGE);
          System.exit(2);
        }
      }
    }
    org.indexfs.bench.bulk.BulkMain.deleteTree(work);
    Files.createDirectories(work);
    try (LocalHdfs hdfs = LocalHdfs.start(work.resolve("hdfs"), 1, Map.of(), false);
        LocalCluster cluster = LocalCluster.builder(work.resolve("indexfs")).clusterName("snapbench").servers(slots)
            .set(IndexFsConfig.DATA_URI.name(), hdfs.uri() + "/data").set(IndexFsConfig.HTTP_PORT.name(), "-1")
            .set(IndexFsConfig.AUDIT_ENABLED.name(), "false").start()) {
      Configuration conf = new Configuration();
      cluster.clientConf().forEach(conf::set);
      IndexFileSystem fs = (IndexFileSystem) FileSystem.newInstance(URI.create(cluster.defaultFs()), conf);
      System.out.printf(Locale.ROOT, "# bench snapshot: %d slot(s), %d cores, load average at start %.1f%n", slots,
          Runtime.getRuntime().availableProcessors(),
          java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
      org.apache.hadoop.fs.Path tree = new org.apache.hadoop.fs.Path("/tree");
      long loaded = load(fs, tree, entries);
      fs.allowSnapshot(tree);
      org.apache.hadoop.fs.Path elsewhere = new org.apache.hadoop.fs.Path("/elsewhere");
      fs.mkdirs(elsewhere);
      for (int r = 0; r < rounds; r++) {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong longest = new AtomicLong();
        AtomicLong creates = new AtomicLong();
        Thread writer = new Thread(() -> {
          try {
            while (!stop.get()) {
              long t0 = System.nanoTime();
              fs.create(new org.apache.hadoop.fs.Path(elsewhere, "w" + creates.incrementAndGet())).close();
              longest.accumulateAndGet(System.nanoTime() - t0, Math::max);
            }
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        });
        writer.start();
        Thread.sleep(500);
        longest.set(0);
        long before = creates.get();
        long t0 = System.nanoTime();
        fs.createSnapshot(tree, "s" + r);
        double took = (System.nanoTime() - t0) / 1e9;
        long during = creates.get() - before;
        long waited = longest.get();
        stop.set(true);
        writer.join();
        System.out.printf(Locale.ROOT, "createSnapshot of %,d entries (round %d): %.2f s (%,.0f entries/s);"
            + " a writer elsewhere made %,d creates meanwhile, the longest %.1f ms%n", loaded, r + 1, took,
            loaded / took, during, waited / 1e6);
      }
      long t0 = System.nanoTime();
      long listed = 0;
      var it = fs.listStatusIterator(new org.apache.hadoop.fs.Path(tree, ".snapshot/s0/d0"));
      while (it.hasNext()) {
        it.next();
        listed++;
      }
      System.out.printf(Locale.ROOT, "listing a directory of the snapshot: %,d entries in %.1f ms%n", listed,
          (System.nanoTime() - t0) / 1e6);
      t0 = System.nanoTime();
      int stats = 2_000;
      for (int i = 0; i < stats; i++) {
        fs.getFileStatus(new org.apache.hadoop.fs.Path(tree, ".snapshot/s0/d" + (i / 1_000) + "/f" + i));
      }
      System.out.printf(Locale.ROOT, "getFileStatus in the snapshot: %,.0f /s (%d calls, 1 thread)%n",
          stats / ((System.nanoTime() - t0) / 1e9), stats);
      for (int r = 0; r < rounds; r++) {
        t0 = System.nanoTime();
        fs.deleteSnapshot(tree, "s" + r);
        System.out.printf(Locale.ROOT, "deleteSnapshot (round %d): %.2f s%n", r + 1, (System.nanoTime() - t0) / 1e9);
      }
      fs.close();
    }
  }

  /** N entries below {@code tree}: directories of 1,000 empty files, created locally and published. */
  private static long load(IndexFileSystem fs, org.apache.hadoop.fs.Path tree, long entries) throws Exception {
    fs.localize(tree, false);
    AtomicLong made = new AtomicLong();
    long t0 = System.nanoTime();
    try (ProgressBar bar = ProgressBar.open(System.console() != null || Boolean.getBoolean("indexfs.progress"),
        "load", entries, made::get)) {
      for (long d = 0; made.get() < entries; d++) {
        org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path(tree, "d" + d);
        fs.mkdirs(dir);
        made.incrementAndGet();
        for (int f = 0; f < 1_000 && made.get() < entries; f++) {
          fs.create(new org.apache.hadoop.fs.Path(dir, "f" + (d * 1_000 + f))).close();
          made.incrementAndGet();
        }
      }
      java.util.List<String> refused = fs.publish(tree);
      if (!refused.isEmpty()) {
        throw new IllegalStateException("publish refused " + refused.size() + " entries, e.g. " + refused.get(0));
      }
    }
    System.out.printf(Locale.ROOT, "loaded %,d entries by bulk insertion in %.1f s%n", made.get(),
        (System.nanoTime() - t0) / 1e9);
    return made.get();
  }
}
