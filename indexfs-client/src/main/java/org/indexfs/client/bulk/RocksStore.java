package org.indexfs.client.bulk;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.rocksdb.EnvOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.SstFileWriter;
import org.rocksdb.WriteOptions;

/**
 * An embedded RocksDB in a scratch directory, without a write-ahead log (unpublished work is not
 * meant to survive the client): the alternative {@code bench bulk} measures against
 * {@link BufferStore}. It holds more than memory, but every create crosses JNI and goes through a
 * memtable, which costs more than the buffer's tree insert.
 */
final class RocksStore implements LocalStore {
  static {
    RocksDB.loadLibrary();
  }

  private final Path dir;
  private final Options options;
  private final WriteOptions write;
  private final RocksDB db;
  private long size;

  private RocksStore(Path dir) throws IOException {
    this.dir = dir;
    options = new Options().setCreateIfMissing(true).setWriteBufferSize(64L << 20);
    write = new WriteOptions().setDisableWAL(true);
    try {
      db = RocksDB.open(options, dir.toString());
    } catch (RocksDBException e) {
      options.close();
      write.close();
      throw new IOException("Cannot open a local store in " + dir + ": " + e.getMessage(), e);
    }
  }

  static RocksStore open(Path scratch) throws IOException {
    Files.createDirectories(scratch);
    return new RocksStore(Files.createTempDirectory(scratch, "localized-"));
  }

  @Override
  public void put(byte[] key, byte[] value) throws IOException {
    try {
      if (db.get(key) == null) {
        size++;
      }
      db.put(write, key, value);
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  @Override
  public byte[] get(byte[] key) throws IOException {
    try {
      return db.get(key);
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  @Override
  public void delete(byte[] key) throws IOException {
    try {
      if (db.get(key) != null) {
        size--;
      }
      db.delete(write, key);
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  @Override
  public List<Map.Entry<byte[], byte[]>> scan(byte[] prefix) {
    List<Map.Entry<byte[], byte[]>> out = new ArrayList<>();
    try (RocksIterator it = db.newIterator()) {
      for (it.seek(prefix); it.isValid() && BufferStore.startsWith(it.key(), prefix); it.next()) {
        out.add(new AbstractMap.SimpleImmutableEntry<>(it.key(), it.value()));
      }
    }
    return out;
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public long writeSst(Path file, Set<ByteKey> skip) throws IOException {
    long n = 0;
    try (EnvOptions env = new EnvOptions(); Options o = new Options(); SstFileWriter writer = new SstFileWriter(env, o);
        RocksIterator it = db.newIterator()) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        if (!skip.isEmpty() && skip.contains(new ByteKey(it.key()))) {
          continue;
        }
        if (n++ == 0) {
          writer.open(file.toString());
        }
        writer.put(it.key(), it.value());
      }
      if (n > 0) {
        writer.finish();
      }
    } catch (RocksDBException e) {
      throw new IOException("Cannot write " + file + ": " + e.getMessage(), e);
    }
    return n;
  }

  @Override
  public void clearExcept(Set<ByteKey> keep) throws IOException {
    List<byte[]> drop = new ArrayList<>();
    try (RocksIterator it = db.newIterator()) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        if (!keep.contains(new ByteKey(it.key()))) {
          drop.add(it.key());
        }
      }
    }
    for (byte[] k : drop) {
      delete(k);
    }
  }

  @Override
  public void close() {
    db.close();
    write.close();
    options.close();
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // scratch space only
    }
  }
}
