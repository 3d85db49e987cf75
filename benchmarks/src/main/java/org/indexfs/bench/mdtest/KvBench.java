package org.indexfs.bench.mdtest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.indexfs.bench.WorkDirs;
import org.indexfs.common.schema.EntryKey;
import org.indexfs.common.schema.Inode;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteOptions;

/**
 * Raw RocksDB on this machine doing exactly what an IndexFS create and stat cost in the store —
 * a get that misses then a put of a new key; a point get — with IndexFS's own key and value
 * encodings (LocoFS §4.2.3 measures the same gap). The WAL is written without fsync, so compare it
 * with IndexFS in {@code indexfs.wal.sync=false} mode.
 */
public final class KvBench {
  public record Result(String op, long operations, double seconds, Histogram micros) {
    public double opsPerSecond() {
      return seconds > 0 ? operations / seconds : 0;
    }
  }

  private KvBench() {}

  public static List<Result> run(Path dir, int threads, int keysPerThread, AtomicLong progress) throws IOException {
    RocksDB.loadLibrary();
    Files.createDirectories(dir);
    List<Result> results = new ArrayList<>();
    try (Options options = new Options().setCreateIfMissing(true).setWriteBufferSize(32L << 20);
        RocksDB db = RocksDB.open(options, dir.toString());
        WriteOptions write = new WriteOptions().setSync(false)) {
      byte[] value = sampleValue();
      results.add(phase("create (get+put)", threads, keysPerThread, progress, (t, i) -> {
        byte[] key = key(t, i);
        if (db.get(key) != null) {
          throw new IllegalStateException("key exists");
        }
        db.put(write, key, value);
      }));
      results.add(phase("stat (get)", threads, keysPerThread, progress, (t, i) -> {
        if (db.get(key(t, i)) == null) {
          throw new IllegalStateException("key missing");
        }
      }));
    } catch (RocksDBException e) {
      throw new IOException("RocksDB benchmark failed: " + e.getMessage(), e);
    } finally {
      WorkDirs.deleteTree(dir);
    }
    return results;
  }

  /** The key of file {@code f.t.i} in one directory, as IndexFS writes it. */
  static byte[] key(int thread, int i) {
    return EntryKey.of(1L << 20, "f." + thread + "." + i).encode();
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
    return new Result(name, (long) threads * perThread, t.seconds(), t.micros());
  }

}
