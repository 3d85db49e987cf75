package org.indexfs.bench.bulk;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Stream;
import org.indexfs.common.schema.EntryKey;
import org.indexfs.common.schema.Inode;
import org.indexfs.server.store.MetadataStore;
import org.rocksdb.TickerType;
import org.rocksdb.WriteBatch;

/**
 * {@code bin/indexfs bench blob [entries] [sizes]}: column-style storage (IndexFS §II-C) measured on
 * the server's own store. Creates of small files with inline bytes of each size (default 512, 2048
 * and 16384 bytes, about 400 MB of values per run), with and without RocksDB's integrated BlobDB
 * ({@code indexfs.store.blob-min-bytes} 256 / 0), alternating; for each: creates/s, the bytes
 * compactions wrote, the store's size on disk, and then lookups (a get and decode of a random
 * entry, as getFileStatus does) per second.
 */
public final class BlobMain {
  private static final int BLOB_MIN = 256;
  private static final long VALUE_BUDGET = 400L << 20;

  private BlobMain() {}

  public static void main(String[] args) throws Exception {
    int maxEntries = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
    String sizes = args.length > 1 ? args[1] : "512,2048,16384";
    Path work = Files.createTempDirectory("indexfs-blob-bench");
    System.out.printf(Locale.ROOT, "%-10s %-15s %8s %13s %14s %13s %12s%n", "value", "blob-min-bytes", "entries",
        "creates/s", "compacted MiB", "on disk MiB", "lookups/s");
    try {
      for (String size : sizes.split(",")) {
        int valueBytes = Integer.parseInt(size.trim());
        int n = (int) Math.min(maxEntries, VALUE_BUDGET / valueBytes);
        for (int blobMin : new int[] {0, BLOB_MIN, 0, BLOB_MIN}) {
          Path dir = work.resolve("min-" + blobMin + "-" + System.nanoTime());
          run(dir, blobMin, n, valueBytes);
          BulkMain.deleteTree(dir);
        }
      }
    } finally {
      BulkMain.deleteTree(work);
    }
  }

  private static void run(Path dir, int blobMin, int n, int valueBytes) throws Exception {
    try (MetadataStore store = MetadataStore.open(dir, blobMin)) {
      Random r = new Random(1);
      byte[] bytes = new byte[valueBytes];
      long start = System.nanoTime();
      for (int i = 0; i < n; i += 1000) {
        try (WriteBatch batch = new WriteBatch()) {
          for (int j = i; j < Math.min(n, i + 1000); j++) {
            r.nextBytes(bytes);
            batch.put(store.entries(), key(j), file(j, bytes).encode());
          }
          store.write(batch);
        }
      }
      double loadSecs = (System.nanoTime() - start) / 1e9;
      store.flush();
      // Let background compactions finish what the load started.
      while (store.property("rocksdb.num-running-compactions") > 0 || store.property("rocksdb.compaction-pending") > 0) {
        Thread.sleep(200);
      }
      long compacted = store.statistics().getTickerCount(TickerType.COMPACT_WRITE_BYTES);
      long lookups = Math.min(n, 200_000);
      Random pick = new Random(2);
      long sum = 0;
      long t0 = System.nanoTime();
      for (long k = 0; k < lookups; k++) {
        sum += Inode.decode(store.get(store.entries(), key(pick.nextInt(n)))).length;
      }
      double getSecs = (System.nanoTime() - t0) / 1e9;
      if (sum != lookups * valueBytes) {
        throw new IllegalStateException("lookups read back " + sum + " bytes, expected " + lookups * valueBytes);
      }
      System.out.printf(Locale.ROOT, "%-10s %-15d %,8d %,13.0f %,14.1f %,13.1f %,12.0f%n", valueBytes + " B", blobMin, n,
          n / loadSecs, compacted / 1048576.0, sizeOf(dir) / 1048576.0, lookups / getSecs);
    }
  }

  private static byte[] key(int j) {
    return EntryKey.of(1 + j % 100, "f" + j).encode();
  }

  private static Inode file(int j, byte[] bytes) {
    Inode v = new Inode();
    v.type = Inode.TYPE_FILE;
    v.inodeId = j;
    v.length = bytes.length;
    v.inlineData = bytes.clone();
    v.permission = 0644;
    v.replication = 3;
    v.blockSize = 128 << 20;
    return v;
  }

  private static long sizeOf(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
    }
  }
}
