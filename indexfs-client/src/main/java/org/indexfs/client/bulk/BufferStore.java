package org.indexfs.client.bulk;

import java.io.IOException;
import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.rocksdb.EnvOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileWriter;

/**
 * A sorted in-memory buffer (a tree ordered as RocksDB orders keys, unsigned bytes): a create is
 * one tree insert, with no JNI crossing, no write-ahead log and no memtable arena; publishing walks
 * it once into {@link SstFileWriter}. The default store: faster than an embedded RocksDB here (see
 * {@code bench bulk}), and bounded by {@code indexfs.client.localize.buffer-entries}, past which the
 * client publishes.
 */
final class BufferStore implements LocalStore {
  static {
    RocksDB.loadLibrary();
  }

  private final TreeMap<byte[], byte[]> entries = new TreeMap<>(Arrays::compareUnsigned);

  @Override
  public void put(byte[] key, byte[] value) {
    entries.put(key, value);
  }

  @Override
  public byte[] swap(byte[] key, byte[] value) {
    return entries.put(key, value);
  }

  @Override
  public byte[] get(byte[] key) {
    return entries.get(key);
  }

  @Override
  public void delete(byte[] key) {
    entries.remove(key);
  }

  @Override
  public List<Map.Entry<byte[], byte[]>> scan(byte[] prefix) {
    List<Map.Entry<byte[], byte[]>> out = new ArrayList<>();
    for (Map.Entry<byte[], byte[]> e : entries.tailMap(prefix, true).entrySet()) {
      if (!startsWith(e.getKey(), prefix)) {
        break;
      }
      out.add(new AbstractMap.SimpleImmutableEntry<>(e.getKey(), e.getValue()));
    }
    return out;
  }

  static boolean startsWith(byte[] key, byte[] prefix) {
    return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
  }

  @Override
  public long size() {
    return entries.size();
  }

  @Override
  public long writeSst(Path file, Set<ByteKey> skip) throws IOException {
    long n = 0;
    try (EnvOptions env = new EnvOptions(); Options options = new Options();
        SstFileWriter writer = new SstFileWriter(env, options)) {
      for (Map.Entry<byte[], byte[]> e : entries.entrySet()) {
        if (!skip.isEmpty() && skip.contains(new ByteKey(e.getKey()))) {
          continue;
        }
        if (n++ == 0) {
          writer.open(file.toString());
        }
        writer.put(e.getKey(), e.getValue());
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
  public void clearExcept(Set<ByteKey> keep) {
    if (keep.isEmpty()) {
      entries.clear();
      return;
    }
    entries.keySet().removeIf(k -> !keep.contains(new ByteKey(k)));
  }

  @Override
  public void close() {
    entries.clear();
  }
}
