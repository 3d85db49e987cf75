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
  private long highWater;

  public InodeAllocator(MetadataStore store, int slot) throws IOException {
    this.store = store;
    this.slot = slot;
    byte[] v = store.get(store.meta(), HIGH_WATER_KEY);
    highWater = v == null ? FIRST_SEQUENCE : ByteBuffer.wrap(v).getLong();
    next = highWater;
  }

  /** The stored high-water mark of a slot's store: every sequence it handed out is below it. */
  public static long storedHighWater(MetadataStore store) throws IOException {
    byte[] v = store.get(store.meta(), HIGH_WATER_KEY);
    return v == null ? FIRST_SEQUENCE : ByteBuffer.wrap(v).getLong();
  }

  public synchronized long next() throws IOException {
    if (next >= highWater) {
      long newHighWater = next + BLOCK;
      try (WriteBatch batch = new WriteBatch()) {
        batch.put(store.meta(), HIGH_WATER_KEY, ByteBuffer.allocate(8).putLong(newHighWater).array());
        store.writeDurably(batch);
      } catch (RocksDBException e) {
        throw new IOException("Cannot persist inode high-water mark", e);
      }
      highWater = newHighWater;
    }
    return InodeIds.of(slot, next++);
  }
}
