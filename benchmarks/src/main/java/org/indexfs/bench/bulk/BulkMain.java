package org.indexfs.bench.bulk;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.indexfs.bench.replay.ProgressBar;
import org.indexfs.client.ClusterConnection;
import org.indexfs.client.IndexFsClient;
import org.indexfs.client.bulk.BulkInsertion;
import org.indexfs.client.bulk.LocalSubtree;
import org.indexfs.client.bulk.SstShipper;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.schema.EntryKey;
import org.indexfs.common.schema.Inode;
import org.indexfs.server.local.EmbeddedZooKeeper;
import org.rocksdb.EnvOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.SstFileWriter;

/**
 * {@code bin/indexfs bench bulk}: bulk insertion (IndexFS §II-D) against one server running as its
 * own JVM with a capped heap. One client's localized creates (mdtest create phase, empty files) next
 * to the same client's server-side creates and raw {@code SstFileWriter} in the same run; 4 clients
 * into private directories and into one SHARED_LOCALIZE directory; then a load of {@code --entries}
 * through bulk insertion, and getFileStatus p50/p99 and ops/s on random names, cold and warm, small
 * file reads and a listing, and the RocksDB size on disk.
 */
public final class BulkMain {
  public static final String USAGE = "indexfs bench bulk [--files N] [--entries N] [--server-heap 1g] [--work DIR]"
      + " [--threads T] [--seconds S]";

  private BulkMain() {}

  public static void main(String[] args) throws Exception {
    long files = 1_000_000;
    long entries = 2_000_000;
    String heap = "1g";
    Path work = Path.of("bench-report/bulk-work");
    int threads = 8;
    int seconds = 10;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--files" -> files = Long.parseLong(args[++i]);
        case "--entries" -> entries = Long.parseLong(args[++i]);
        case "--server-heap" -> heap = args[++i];
        case "--work" -> work = Path.of(args[++i]);
        case "--threads" -> threads = Integer.parseInt(args[++i]);
        case "--seconds" -> seconds = Integer.parseInt(args[++i]);
        default -> {
          System.err.println("Usage: " + USAGE);
          System.exit(2);
        }
      }
    }
    RocksDB.loadLibrary();
    deleteTree(work);
    Files.createDirectories(work.resolve("data"));
    String dataUri = work.resolve("data").toAbsolutePath().toUri().toString().replaceAll("/$", "");
    try (EmbeddedZooKeeper zk = new EmbeddedZooKeeper(work.resolve("zk").toFile(), 0);
        ServerJvm server = ServerJvm.start(heap, Map.of(
            IndexFsConfig.SERVER_DIR.name(), work.resolve("slot-0").toAbsolutePath().toString(),
            IndexFsConfig.ZOOKEEPER_QUORUM.name(), zk.connectString(), IndexFsConfig.CLUSTER_NAME.name(), "bulk",
            IndexFsConfig.DATA_URI.name(), dataUri, IndexFsConfig.HTTP_PORT.name(), "-1",
            IndexFsConfig.AUDIT_ENABLED.name(), "false"), work.resolve("server.log"))) {
      Bench b = new Bench(zk.connectString(), dataUri, work);
      System.out.printf(Locale.ROOT, "# bench bulk: server JVM -Xmx%s, %d cores, %s, load average at start %.1f%n", heap,
          Runtime.getRuntime().availableProcessors(), System.getProperty("os.arch"),
          java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
      b.rawSst(Math.min(files, 100_000)); // warm-up of the encoders and the JIT
      b.rawSst(files);
      b.localized("buffer", Math.min(files, 200_000)); // warm-up of the create path and the JIT, as for the SST writer
      b.localized("buffer", files);
      b.localized("rocksdb", files / 4);
      b.serverSide(Math.min(files, 20_000), 1);
      b.serverSide(Math.min(files, 40_000), 16);
      b.clients(4, files / 4, false);
      b.clients(4, files / 4, true);
      b.load(entries);
      b.lookups(entries, threads, seconds, "warm");
    }
    // Cold: a fresh server JVM on the same RocksDB (empty caches, OS page cache as it is).
    try (EmbeddedZooKeeper zk = new EmbeddedZooKeeper(work.resolve("zk").toFile(), 0);
        ServerJvm server = ServerJvm.start(heap, Map.of(
            IndexFsConfig.SERVER_DIR.name(), work.resolve("slot-0").toAbsolutePath().toString(),
            IndexFsConfig.ZOOKEEPER_QUORUM.name(), zk.connectString(), IndexFsConfig.CLUSTER_NAME.name(), "bulk",
            IndexFsConfig.DATA_URI.name(), dataUri, IndexFsConfig.HTTP_PORT.name(), "-1",
            IndexFsConfig.AUDIT_ENABLED.name(), "false"), work.resolve("server-cold.log"))) {
      Bench b = new Bench(zk.connectString(), dataUri, work);
      // Reads and a listing first, while nothing is cached; then the same again once warm.
      b.smallReadsAndListing(entries, "cold (restarted server)");
      b.lookups(entries, threads, seconds, "cold (restarted server)");
      b.lookups(entries, threads, seconds, "warm");
      b.smallReadsAndListing(entries, "warm");
    }
    System.out.printf(Locale.ROOT, "RocksDB size on disk (slot-0): %.1f MiB for %,d loaded entries (%.1f bytes/entry)%n",
        size(work.resolve("slot-0")) / 1048576.0, entries, size(work.resolve("slot-0")) / (double) Math.max(1, entries));
  }

  static long size(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
  }

  public static void deleteTree(Path dir) throws IOException {
    if (Files.exists(dir)) {
      try (Stream<Path> s = Files.walk(dir)) {
        s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /** The measurements, each printing one line. */
  static final class Bench {
    private final String zk;
    private final String dataUri;
    private final Path work;
    private int clientSeq;

    Bench(String zk, String dataUri, Path work) {
      this.zk = zk;
      this.dataUri = dataUri;
      this.work = work;
    }

    IndexFsClient client() throws IOException {
      ClusterConnection c = ClusterConnection.openUnshared(zk, "bulk", IndexFsConfig.RPC_MAX_FRAME_BYTES.defaultValue(), 30_000);
      return new IndexFsClient(c, IndexFsClient.caller(System.getProperty("user.name"), List.of(),
          "bench-" + (clientSeq++) + "-" + System.nanoTime()), 120_000);
    }

    BulkInsertion bulk(IndexFsClient c, String store) {
      Path data = Path.of(java.net.URI.create(dataUri));
      SstShipper shipper = new SstShipper() {
        @Override
        public String ship(Path local, String directory) throws IOException {
          String name = directory + "/" + System.nanoTime() + ".sst";
          Files.createDirectories(data.resolve(directory));
          Files.move(local, data.resolve(name));
          return name;
        }

        @Override
        public void discard(String name) {
          data.resolve(name).toFile().delete();
        }
      };
      return new BulkInsertion(c, shipper, store, work.resolve("scratch"), Long.MAX_VALUE, Long.MAX_VALUE);
    }

    void rawSst(long n) throws Exception {
      Path f = work.resolve("raw.sst");
      long start = System.nanoTime();
      try (EnvOptions env = new EnvOptions(); Options o = new Options(); SstFileWriter w = new SstFileWriter(env, o)) {
        w.open(f.toString());
        java.util.TreeMap<byte[], byte[]> sorted = new java.util.TreeMap<>(java.util.Arrays::compareUnsigned);
        for (long i = 0; i < n; i++) {
          Inode v = emptyFile(i);
          sorted.put(EntryKey.of(1_000, "file." + i).encode(), v.encode());
        }
        for (Map.Entry<byte[], byte[]> e : sorted.entrySet()) {
          w.put(e.getKey(), e.getValue());
        }
        w.finish();
      }
      report("raw SstFileWriter (encode, sort, write " + n + " entries)", n, System.nanoTime() - start);
      Files.delete(f);
    }

    static Inode emptyFile(long id) {
      Inode v = new Inode();
      v.type = Inode.TYPE_FILE;
      v.inodeId = id;
      v.permission = 0644;
      v.replication = 3;
      v.blockSize = 128 << 20;
      v.mtime = v.atime = System.currentTimeMillis();
      return v;
    }

    private int rounds;

    void localized(String store, long n) throws Exception {
      try (IndexFsClient c = client()) {
        BulkInsertion bulk = bulk(c, store);
        String dir = "/local-" + store + "-" + n + "-" + (++rounds); // the warm-up may have the same size
        LocalSubtree t = bulk.localize(dir, 0777, false);
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        long cpu0 = mx.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        try (ProgressBar bar = ProgressBar.open(true, "localized creates (" + store + ")", n, t::pendingEntries)) {
          for (long i = 0; i < n; i++) {
            String path = dir + "/file." + i;
            t.complete(t.create(path, 0644, false, 3, 128 << 20).inodeId(), 0, new byte[0], null);
          }
        }
        long created = System.nanoTime() - start;
        report("1 client, localized creates, store=" + store, n, created);
        report("  per CPU-second of the creating thread (what an idle core would do)", n,
            mx.getCurrentThreadCpuTime() - cpu0);
        long p = System.nanoTime();
        bulk.publish(dir, true);
        report("  + publish (SST write, ship, validate, ingest)", n, System.nanoTime() - p);
        report("  = creates including publish", n, System.nanoTime() - start);
      }
    }

    void serverSide(long n, int threads) throws Exception {
      try (IndexFsClient c = client()) {
        String dir = "/server-" + threads;
        c.mkdirs(dir, 0777);
        AtomicLong next = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long start = System.nanoTime();
        List<Future<?>> fs = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          fs.add(pool.submit(() -> {
            for (long i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
              String path = dir + "/file." + i;
              c.complete(path, c.create(path, 0644, false, 3, 128 << 20, false).getInodeId(), 0, new byte[0], null);
            }
            return null;
          }));
        }
        for (Future<?> f : fs) {
          f.get();
        }
        pool.shutdown();
        report("1 client, server-side creates (create+close RPCs, " + threads + " threads)", n, System.nanoTime() - start);
      }
    }

    void clients(int k, long each, boolean shared) throws Exception {
      List<IndexFsClient> cs = new ArrayList<>();
      List<LocalSubtree> ts = new ArrayList<>();
      List<BulkInsertion> bs = new ArrayList<>();
      String base = shared ? "/shared-4" : "/private-4";
      for (int i = 0; i < k; i++) {
        IndexFsClient c = client();
        BulkInsertion b = bulk(c, "buffer");
        cs.add(c);
        bs.add(b);
        ts.add(b.localize(shared ? base : base + "-" + i, 0777, shared));
      }
      ExecutorService pool = Executors.newFixedThreadPool(k);
      long start = System.nanoTime();
      List<Future<?>> fs = new ArrayList<>();
      for (int i = 0; i < k; i++) {
        int me = i;
        fs.add(pool.submit(() -> {
          LocalSubtree t = ts.get(me);
          for (long j = 0; j < each; j++) {
            t.complete(t.create(t.root() + "/c" + me + ".file." + j, 0644, false, 3, 128 << 20).inodeId(),
                0, new byte[0], null);
          }
          return null;
        }));
      }
      for (Future<?> f : fs) {
        f.get();
      }
      long created = System.nanoTime() - start;
      fs.clear();
      for (int i = 0; i < k; i++) {
        int me = i;
        fs.add(pool.submit(() -> bs.get(me).publish(ts.get(me).root(), true)));
      }
      for (Future<?> f : fs) {
        f.get();
      }
      pool.shutdown();
      String what = k + " clients, " + (shared ? "one SHARED_LOCALIZE directory" : "private directories");
      report(what + ", localized creates (aggregate)", k * each, created);
      report("  = aggregate including publish", k * each, System.nanoTime() - start);
      for (IndexFsClient c : cs) {
        c.close();
      }
    }

    /** Loads {@code n} entries: mdtest-style trees (10 x 10 directories) and one huge directory, half each. */
    void load(long n) throws Exception {
      try (IndexFsClient c = client()) {
        BulkInsertion bulk = bulk(c, "buffer");
        LocalSubtree t = bulk.localize("/load", 0777, false);
        AtomicLong done = new AtomicLong();
        long start = System.nanoTime();
        long batch = 2_000_000;
        try (ProgressBar bar = ProgressBar.open(true, "bulk load", n, done::get)) {
          for (long i = 0; i < n; i++) {
            String path = i % 2 == 0 ? "/load/huge/f" + i : "/load/tree." + (i % 10) + "/sub." + (i / 10 % 10) + "/f" + i;
            byte[] bytes = i % 1000 == 1 ? ("small file " + i).getBytes() : new byte[0];
            t.complete(t.create(path, 0644, false, 3, 128 << 20).inodeId(), bytes.length, bytes, null);
            done.incrementAndGet();
            if (t.pendingEntries() >= batch) {
              t.publish(false);
            }
          }
          bulk.publish("/load", true);
        }
        report("bulk load of " + n + " entries (trees + one huge directory, including publishes)", n, System.nanoTime() - start);
      }
    }

    static String nameOf(long i) {
      return i % 2 == 0 ? "/load/huge/f" + i : "/load/tree." + (i % 10) + "/sub." + (i / 10 % 10) + "/f" + i;
    }

    void lookups(long n, int threads, int seconds, String label) throws Exception {
      try (IndexFsClient c = client()) {
        Histogram h = new Histogram(3);
        AtomicLong ops = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        List<Future<?>> fs = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          long seed = t;
          fs.add(pool.submit(() -> {
            Random r = new Random(seed);
            Histogram mine = new Histogram(3);
            while (System.nanoTime() < end) {
              long i = Math.floorMod(r.nextLong(), n);
              long s = System.nanoTime();
              c.getFileStatus(nameOf(i));
              mine.recordValue((System.nanoTime() - s) / 1000);
              ops.incrementAndGet();
            }
            synchronized (h) {
              h.add(mine);
            }
            return null;
          }));
        }
        for (Future<?> f : fs) {
          f.get();
        }
        pool.shutdown();
        System.out.printf(Locale.ROOT, "getFileStatus, random names of %,d, %s, %d threads: %,.0f ops/s, p50 %d us, p99 %d us%n",
            n, label, threads, ops.get() / (double) seconds, h.getValueAtPercentile(50), h.getValueAtPercentile(99));
      }
    }

    void smallReadsAndListing(long n, String label) throws Exception {
      try (IndexFsClient c = client()) {
        long start = System.nanoTime();
        int reads = 0;
        for (long i = 1; i < n && reads < 1_000; i += Math.max(1, n / 1000)) {
          c.open(nameOf(i));
          reads++;
        }
        report("open-for-read of small inline files, " + label + " (1 thread)", reads, System.nanoTime() - start);
        start = System.nanoTime();
        long listed = c.listAll("/load/tree.3/sub.4").size();
        report("listing /load/tree.3/sub.4, " + label, listed, System.nanoTime() - start);
      }
    }
  }

  static void report(String what, long n, long nanos) {
    System.out.printf(Locale.ROOT, "%-78s %,12.0f /s  (%,d in %.2f s)%n", what, n / (nanos / 1e9), n, nanos / 1e9);
  }
}
