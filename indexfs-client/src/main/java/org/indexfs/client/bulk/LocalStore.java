package org.indexfs.client.bulk;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Where a bulk-insertion client keeps the entries it made in a localized subtree and has not
 * published yet: keys and values exactly as the server stores them ({@code EntryKey},
 * {@code Inode}), so publishing is writing them out in key order as an SST file.
 */
public interface LocalStore extends AutoCloseable {
  void put(byte[] key, byte[] value) throws IOException;

  /** Puts {@code value} under {@code key}; returns the value it replaced, or null. */
  default byte[] swap(byte[] key, byte[] value) throws IOException {
    byte[] before = get(key);
    put(key, value);
    return before;
  }

  /** The value of {@code key}, or null. */
  byte[] get(byte[] key) throws IOException;

  void delete(byte[] key) throws IOException;

  /** The entries whose keys start with {@code prefix} (a directory's), in key order. */
  List<Map.Entry<byte[], byte[]>> scan(byte[] prefix) throws IOException;

  long size();

  /** Writes every entry except {@code skip} (keys) in key order to a new SST file; how many it wrote. */
  long writeSst(Path file, java.util.Set<ByteKey> skip) throws IOException;

  /** Drops every entry except {@code keep} (keys). */
  void clearExcept(java.util.Set<ByteKey> keep) throws IOException;

  @Override
  void close();

  /** A key as a map key. */
  record ByteKey(byte[] bytes) {
    @Override
    public boolean equals(Object o) {
      return o instanceof ByteKey k && java.util.Arrays.equals(bytes, k.bytes);
    }

    @Override
    public int hashCode() {
      return java.util.Arrays.hashCode(bytes);
    }
  }

  /** The store {@code kind} names ({@code indexfs.client.localize.store}): buffer or rocksdb. */
  static LocalStore open(String kind, Path scratch) throws IOException {
    return switch (kind) {
      case "buffer" -> new BufferStore();
      case "rocksdb" -> RocksStore.open(scratch);
      default -> throw new IllegalArgumentException("indexfs.client.localize.store is buffer or rocksdb, not " + kind);
    };
  }
}
