package org.indexfs.bench.bulk;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;
import org.indexfs.common.schema.EntryKey;
import org.indexfs.common.schema.Inode;
import org.indexfs.server.store.MetadataStore;
import org.rocksdb.TickerType;
import org.rocksdb.WriteBatch;

/**
 * {@code bin/indexfs bench blob}: column-style storage (IndexFS §II-C) measured on the server's own
 * store: creates of small files with inline bytes, with and without RocksDB's integrated BlobDB
 * ({@code indexfs.store.blob-min-bytes}); entries/s and the bytes compactions wrote.
 */
public final class BlobMain {
  private BlobMain() {}

  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
    int valueBytes = args.length > 1 ? Integer.parseInt(args[1]) : 2048;
    Path work = Files.createTempDirectory("indexfs-blob-bench");
    for (int blobMin : new int[] {0, 256, 0, 256}) {
      Path dir = work.resolve("min-" + blobMin + "-" + System.nanoTime());
      try (MetadataStore store = MetadataStore.open(dir, blobMin)) {
        Random r = new Random(1);
        byte[] bytes = new byte[valueBytes];
        long start = System.nanoTime();
        for (int i = 0; i < n; i += 1000) {
          try (WriteBatch batch = new WriteBatch()) {
            for (int j = i; j < Math.min(n, i + 1000); j++) {
              r.nextBytes(bytes);
              Inode v = new Inode();
              v.type = Inode.TYPE_FILE;
              v.inodeId = j;
              v.length = valueBytes;
              v.inlineData = bytes.clone();
              v.permission = 0644;
              v.replication = 3;
              v.blockSize = 128 << 20;
              batch.put(store.entries(), EntryKey.of(1 + j % 100, "f" + j).encode(), v.encode());
            }
            store.write(batch);
          }
        }
        double secs = (System.nanoTime() - start) / 1e9;
        // Let background compactions finish what the load started.
        while (store.property("rocksdb.num-running-compactions") > 0 || store.property("rocksdb.compaction-pending") > 0) {
          Thread.sleep(200);
        }
        long compacted = store.statistics().getTickerCount(TickerType.COMPACT_WRITE_BYTES);
        System.out.printf(Locale.ROOT, "blob-min-bytes=%-4d  %,9.0f creates/s   compaction writes %,8.1f MiB   (%,d files of %d bytes)%n",
            blobMin, n / secs, compacted / 1048576.0, n, valueBytes);
      }
      BulkMain.deleteTree(dir);
    }
    BulkMain.deleteTree(work);
  }
}
