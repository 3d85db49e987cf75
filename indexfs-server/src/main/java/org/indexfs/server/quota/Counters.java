package org.indexfs.server.quota;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.indexfs.server.store.MetadataStore;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * What this slot's changes have added under each quota'd directory, in the {@code usage} column
 * family: {@code dirId | 'n'} (entries) and {@code dirId | 'd'} (bytes × replication), each an
 * 8-byte little-endian counter that RocksDB adds merges into ({@code uint64add}; a negative delta
 * is its two's complement). A slot's count can go below zero: an entry created through one slot
 * may be deleted through another; only the sum over all slots is the directory's usage.
 */
final class Counters {
  private final MetadataStore store;

  Counters(MetadataStore store) {
    this.store = store;
  }

  private static byte[] key(long dirId, byte kind) {
    return ByteBuffer.allocate(9).putLong(dirId).put(kind).array();
  }

  private static byte[] le(long v) {
    return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
  }

  /** Adds to this slot's counts of {@code dirId} in the caller's batch. */
  void add(WriteBatch batch, long dirId, long entries, long space) throws IOException {
    try {
      if (entries != 0) {
        batch.merge(store.usage(), key(dirId, (byte) 'n'), le(entries));
      }
      if (space != 0) {
        batch.merge(store.usage(), key(dirId, (byte) 'd'), le(space));
      }
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  /** Sets this slot's counts of {@code dirId} (a quota defined here starts from the directory's usage). */
  void set(WriteBatch batch, long dirId, long entries, long space) throws IOException {
    try {
      batch.put(store.usage(), key(dirId, (byte) 'n'), le(entries));
      batch.put(store.usage(), key(dirId, (byte) 'd'), le(space));
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  /** This slot's counts of {@code dirId}: {entries, space}. */
  long[] read(long dirId) throws IOException {
    return new long[] {value(store.get(store.usage(), key(dirId, (byte) 'n'))),
        value(store.get(store.usage(), key(dirId, (byte) 'd')))};
  }

  private static long value(byte[] v) {
    return v == null ? 0 : ByteBuffer.wrap(v).order(ByteOrder.LITTLE_ENDIAN).getLong();
  }

  void forget(WriteBatch batch, long dirId) throws IOException {
    try {
      batch.deleteRange(store.usage(), ByteBuffer.allocate(8).putLong(dirId).array(),
          ByteBuffer.allocate(8).putLong(dirId + 1).array());
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }
}
