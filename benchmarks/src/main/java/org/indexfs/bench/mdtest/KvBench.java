package org.indexfs.bench.mdtest;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.indexfs.bench.WorkDirs;
import org.indexfs.common.schema.EntryKey;
import org.indexfs.common.schema.Inode;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * Raw RocksDB on this machine doing exactly the reads and writes an IndexFS server does for each
 * mdtest phase with a warm directory cache (DESIGN §10's floor), with IndexFS's own key and value
 * encodings and column families (LocoFS §4.2.3 measures the same gap). The WAL is written without
 * fsync, or ({@code sync}) fsynced before each write returns — RocksDB's own group commit among
 * the concurrent writers, the floor of {@code wal.sync=true}. Keep the recipes in step with the
 * operations:
 * <ul>
 *   <li>create + close: {@code CreateOp} reads the name (a miss) and writes entry, lease and the
 *       parent's mtime in one batch; {@code CompleteOp} reads the entry (the lease is in memory)
 *       and writes the entry and the lease's removal;</li>
 *   <li>stat: one read of the entry;</li>
 *   <li>delete: one read of the entry, then its removal and the parent's mtime in one batch;</li>
 *   <li>list: iterating the directory's entries and decoding each.</li>
 * </ul>
 */
public final class KvBench {
  public record Result(String op, long operations, double seconds, Histogram micros, long cpuNanos) {
    public double opsPerSecond() {
      return seconds > 0 ? operations / seconds : 0;
    }

    public double cpuMicrosPerOp() {
      return operations > 0 ? cpuNanos / 1000.0 / operations : 0;
    }
  }

  private static final long DIR = 1L << 20;
  private static final long GRANDPARENT = 1L << 19;
  private static final byte[] LEASE_PREFIX = "lease/".getBytes(StandardCharsets.UTF_8);

  private KvBench() {}

  /** The phases by mdtest phase name: create, stat, list, delete, the WAL not fsynced. */
  public static Map<String, Result> run(Path dir, int threads, int keysPerThread, AtomicLong progress)
      throws IOException {
    return run(dir, threads, keysPerThread, progress, false);
  }

  /**
   * As above; with {@code sync} every write batch is fsynced before it returns (RocksDB groups the
   * concurrent writers' fsyncs), and only the phases that write run: create and delete.
   */
  public static Map<String, Result> run(Path dir, int threads, int keysPerThread, AtomicLong progress, boolean sync)
      throws IOException {
    RocksDB.loadLibrary();
    Files.createDirectories(dir);
    Map<String, Result> results = new LinkedHashMap<>();
    try (DBOptions options = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true);
        ColumnFamilyOptions entryOptions = new ColumnFamilyOptions().setWriteBufferSize(32L << 20);
        ColumnFamilyOptions plain = new ColumnFamilyOptions();
        WriteOptions write = new WriteOptions().setSync(sync)) {
      java.util.List<ColumnFamilyHandle> handles = new java.util.ArrayList<>();
      try (RocksDB db = RocksDB.open(options, dir.toString(), java.util.List.of(
          new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, plain),
          new ColumnFamilyDescriptor("entries".getBytes(StandardCharsets.UTF_8), entryOptions),
          new ColumnFamilyDescriptor("meta".getBytes(StandardCharsets.UTF_8), plain)), handles)) {
        ColumnFamilyHandle entries = handles.get(1);
        ColumnFamilyHandle meta = handles.get(2);
        byte[] value = sampleValue();
        byte[] parentKey = EntryKey.of(GRANDPARENT, "shared").encode();
        byte[] parentValue = sampleDirectory();
        results.put("create", phase("create", threads, keysPerThread, progress, (t, i) -> {
          byte[] key = key(t, i);
          byte[] lease = leaseKey(t, i);
          if (db.get(entries, key) != null) {
            throw new IllegalStateException("key exists");
          }
          try (WriteBatch b = new WriteBatch()) {
            b.put(entries, key, value);
            b.put(meta, lease, value);
            b.put(entries, parentKey, parentValue);
            db.write(write, b);
          }
          db.get(entries, key);
          try (WriteBatch b = new WriteBatch()) {
            b.put(entries, key, value);
            b.delete(meta, lease);
            db.write(write, b);
          }
        }));
        if (!sync) {
          results.put("stat", phase("stat", threads, keysPerThread, progress, (t, i) -> {
            if (db.get(entries, key(t, i)) == null) {
              throw new IllegalStateException("key missing");
            }
          }));
          results.put("list", list(db, entries, threads, keysPerThread, progress));
        }
        results.put("delete", phase("delete", threads, keysPerThread, progress, (t, i) -> {
          byte[] key = key(t, i);
          if (db.get(entries, key) == null) {
            throw new IllegalStateException("key missing");
          }
          try (WriteBatch b = new WriteBatch()) {
            b.delete(entries, key);
            b.put(entries, parentKey, parentValue);
            db.write(write, b);
          }
        }));
      } finally {
        handles.forEach(ColumnFamilyHandle::close);
      }
    } catch (RocksDBException e) {
      throw new IOException("RocksDB benchmark failed: " + e.getMessage(), e);
    } finally {
      WorkDirs.deleteTree(dir);
    }
    return results;
  }

  /** Every thread iterates the whole directory once, decoding each entry (one op per entry). */
  private static Result list(RocksDB db, ColumnFamilyHandle entries, int threads, int keysPerThread,
      AtomicLong progress) throws IOException {
    byte[] prefix = EntryKey.prefix(DIR);
    long[] listed = new long[threads];
    ThreadedPhase.Timing t = ThreadedPhase.run("list", threads, (thread, micros) -> {
      long t0 = System.nanoTime();
      try (RocksIterator it = db.newIterator(entries)) {
        for (it.seek(prefix); it.isValid() && startsWith(it.key(), prefix); it.next()) {
          Inode.decode(it.value());
          listed[thread]++;
          long now = System.nanoTime();
          micros.recordValue(Math.max(1, (now - t0) / 1000));
          t0 = now;
        }
      }
      progress.addAndGet(listed[thread]);
    });
    long total = java.util.Arrays.stream(listed).sum();
    if (total != (long) threads * threads * keysPerThread) {
      throw new IOException("Listing found " + total + " entries, expected " + (long) threads * threads * keysPerThread);
    }
    return new Result("list", total, t.seconds(), t.micros(), t.workerCpuNanos());
  }

  private static boolean startsWith(byte[] key, byte[] prefix) {
    return key.length >= prefix.length && java.util.Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
  }

  /** The key of file {@code f.t.i} in one directory, as IndexFS writes it. */
  static byte[] key(int thread, int i) {
    return EntryKey.of(DIR, "f." + thread + "." + i).encode();
  }

  private static byte[] leaseKey(int thread, int i) {
    return ByteBuffer.allocate(LEASE_PREFIX.length + 8).put(LEASE_PREFIX).putLong(((long) thread << 32) | i).array();
  }

  /** An empty file's entry value: the fixed-width header with no tail. */
  static byte[] sampleValue() {
    Inode inode = new Inode();
    inode.type = Inode.TYPE_FILE;
    inode.permission = 0644;
    inode.replication = 3;
    inode.blockSize = 128L << 20;
    inode.inodeId = 12345;
    inode.mtime = inode.atime = System.currentTimeMillis();
    inode.inlineData = new byte[0];
    return inode.encode();
  }

  private static byte[] sampleDirectory() {
    Inode inode = new Inode();
    inode.type = Inode.TYPE_DIRECTORY;
    inode.permission = 0755;
    inode.inodeId = DIR;
    inode.mtime = inode.atime = System.currentTimeMillis();
    return inode.encode();
  }

  interface KvOp {
    void apply(int thread, int i) throws RocksDBException;
  }

  private static Result phase(String name, int threads, int perThread, AtomicLong progress, KvOp op)
      throws IOException {
    ThreadedPhase.Timing t = ThreadedPhase.run(name, threads, (thread, micros) -> {
      for (int i = 0; i < perThread; i++) {
        long t0 = System.nanoTime();
        op.apply(thread, i);
        micros.recordValue(Math.max(1, (System.nanoTime() - t0) / 1000));
        progress.incrementAndGet();
      }
    });
    return new Result(name, (long) threads * perThread, t.seconds(), t.micros(), t.workerCpuNanos());
  }
}
