package org.indexfs.server.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.indexfs.common.InodeIds;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * Hands out inode ids {@code slot | sequence} from a persisted counter (DESIGN §3). Sequences are
 * reserved in blocks: the high-water mark is fsynced before any id of a block is used, so ids are
 * never reused after a crash (at most one block is skipped).
 */
public final class InodeAllocator {
  private static final byte[] HIGH_WATER_KEY = "inode.highwater".getBytes(StandardCharsets.UTF_8);
  private static final long BLOCK = 4096;
  /** Sequences below this are reserved (1 is the root). */
  private static final long FIRST_SEQUENCE = 16;

  private final MetadataStore store;
  private final int slot;
  private long next;
  /** End of the block next() hands out from; reservations take ids from highWater on. */
  private long blockEnd;
  private long highWater;

  public InodeAllocator(MetadataStore store, int slot) throws IOException {
    this.store = store;
    this.slot = slot;
    byte[] v = store.get(store.meta(), HIGH_WATER_KEY);
    highWater = v == null ? FIRST_SEQUENCE : ByteBuffer.wrap(v).getLong();
    next = highWater;
    blockEnd = highWater;
  }

  /** The stored high-water mark of a slot's store: every sequence it handed out is below it. */
  public static long storedHighWater(MetadataStore store) throws IOException {
    byte[] v = store.get(store.meta(), HIGH_WATER_KEY);
    return v == null ? FIRST_SEQUENCE : ByteBuffer.wrap(v).getLong();
  }

  /**
   * Reserves {@code count} consecutive ids for a bulk-insertion client (IndexFS §II-D), which names
   * its entries from them itself: the high-water mark moves past them durably before they are
   * handed out, so they stay unique and {@code slot | sequence} shaped. Returns the first.
   */
  public synchronized long reserve(long count) throws IOException {
    if (count <= 0) {
      throw new IllegalArgumentException("reserve at least one id, not " + count);
    }
    // The rest of the current block stays for next(); the reserved range starts at the mark.
    long first = highWater;
    persist(first + count);
    return InodeIds.of(slot, first);
  }

  private void persist(long newHighWater) throws IOException {
    try (WriteBatch batch = new WriteBatch()) {
      batch.put(store.meta(), HIGH_WATER_KEY, ByteBuffer.allocate(8).putLong(newHighWater).array());
      store.writeDurably(batch);
    } catch (RocksDBException e) {
      throw new IOException("Cannot persist inode high-water mark", e);
    }
    highWater = newHighWater;
  }

  public synchronized long next() throws IOException {
    if (next >= blockEnd) {
      // A fresh block starts at the mark (a reservation may have moved it past the last block).
      next = highWater;
      persist(next + BLOCK);
      blockEnd = highWater;
    }
    return InodeIds.of(slot, next++);
  }
}
