package org.indexfs.server.ns;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import org.indexfs.common.InodeIds;
import org.indexfs.common.giga.PartitionBitmap;
import org.indexfs.common.Permission;
import org.indexfs.common.schema.EntryKey;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.FileType;
import org.indexfs.server.store.GroupCommit;
import org.indexfs.server.store.InodeAllocator;
import org.indexfs.server.store.MetadataStore;
import org.indexfs.server.store.Principals;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * What every operation works on: one slot's tables, its lock, ids, principals and durability.
 *
 * <p>Concurrency follows the HDFS NameNode: a mutation validates and writes its batch under the
 * write lock, releases it, then waits for the WAL sync outside the lock, so concurrent writers
 * share fsyncs. Reads take the read lock, so a multi-key read never sees half a rename.
 */
public final class Namespace {
  private final MetadataStore store;
  private final Principals principals;
  private final InodeAllocator inodes;
  private final GroupCommit groupCommit;
  private final boolean walSync;
  private final int slot;
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final AtomicLong mutations = new AtomicLong();

  public Namespace(MetadataStore store, int slot, boolean walSync, String rootOwner, String rootGroup)
      throws IOException {
    this.store = store;
    this.slot = slot;
    this.walSync = walSync;
    this.principals = new Principals(store);
    this.inodes = new InodeAllocator(store, slot);
    this.groupCommit = new GroupCommit(store);
    if (slot == 0) {
      ensureRoot(rootOwner, rootGroup);
    }
  }

  private void ensureRoot(String owner, String group) throws IOException {
    byte[] key = rootKey();
    byte[] existing = store.get(store.entries(), key);
    if (existing != null) {
      if (partition(InodeIds.ROOT) == null) {
        try (WriteBatch batch = new WriteBatch()) {
          putPartition(batch, Inode.decode(existing));
          store.writeDurably(batch);
        }
      }
      return;
    }
    Inode root = new Inode();
    root.type = Inode.TYPE_DIRECTORY;
    root.inodeId = InodeIds.ROOT;
    root.permission = Permission.DEFAULT_DIR;
    root.ownerId = principals.idOf(owner);
    root.groupId = principals.idOf(group);
    root.mtime = root.atime = System.currentTimeMillis();
    root.zerothSlot = 0;
    try (WriteBatch batch = new WriteBatch()) {
      batch.put(store.entries(), key, root.encode());
      putPartition(batch, root);
      store.writeDurably(batch);
    } catch (RocksDBException e) {
      throw new IOException("Cannot create the root", e);
    }
  }

  private static byte[] rootKey() {
    return new EntryKey(InodeIds.NO_PARENT, 0, "").encode();
  }

  public MetadataStore store() {
    return store;
  }

  public int slot() {
    return slot;
  }

  public Principals principals() {
    return principals;
  }

  public long newInodeId() throws IOException {
    return inodes.next();
  }

  public long mutationCount() {
    return mutations.get();
  }

  public GroupCommit groupCommit() {
    return groupCommit;
  }

  /** The root directory's inode. */
  public Inode root() throws IOException {
    byte[] v = store.get(store.entries(), rootKey());
    if (v == null) {
      throw new IOException("Root entry missing on slot " + slot);
    }
    return Inode.decode(v);
  }

  /** The entry {@code name} in directory {@code parentId}, or null. */
  public Inode lookup(long parentId, String name) throws IOException {
    byte[] v = store.get(store.entries(), EntryKey.of(parentId, name).encode());
    return v == null ? null : Inode.decode(v);
  }

  /**
   * Writes an entry. A directory homed on this slot gets its partition record refreshed in the
   * same batch, so the record's access attributes never lag behind the entry's.
   */
  public void putEntry(WriteBatch batch, long parentId, String name, Inode inode) throws IOException {
    try {
      byte[] key = parentId == InodeIds.NO_PARENT ? rootKey() : EntryKey.of(parentId, name).encode();
      batch.put(store.entries(), key, inode.encode());
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
    if (parentId != InodeIds.NO_PARENT) {
      store.nameIndex().put(batch, parentId, name, inode);
    }
    if (inode.isDirectory() && inode.zerothSlot == slot) {
      putPartition(batch, inode);
    }
  }

  /**
   * The partition record of directory {@code dirId} if this slot is its home: the directory's
   * attributes (a copy of its entry, which may live on another slot) for local permission checks
   * (DESIGN §3). Null when this slot holds no partition of it.
   */
  public Inode partition(long dirId) throws IOException {
    byte[] v = store.get(store.meta(), partitionKey(dirId));
    return v == null ? null : Inode.decode(v);
  }

  public void putPartition(WriteBatch batch, Inode dir) throws IOException {
    Inode record = dir.copy();
    record.flags = dir.flags & Inode.FLAG_SEALED;
    record.inlineData = null;
    record.dataObject = null;
    try {
      batch.put(store.meta(), partitionKey(dir.inodeId), record.encode());
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  public void deletePartition(WriteBatch batch, long dirId) throws IOException {
    try {
      batch.delete(store.meta(), partitionKey(dirId));
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  /**
   * The GIGA+ bitmap this slot knows for directory {@code dirId} (DESIGN §4): exact for the
   * partitions this slot split off itself, possibly missing later splits made elsewhere (a
   * lookup then lands on a slot that redirects). Cached; only splits and ingests change it.
   */
  public PartitionBitmap bitmap(long dirId) throws IOException {
    PartitionBitmap cached = bitmaps.getIfPresent(dirId);
    if (cached != null) {
      return cached;
    }
    byte[] v = store.get(store.meta(), bitmapKey(dirId));
    PartitionBitmap b = v == null ? PartitionBitmap.initial() : PartitionBitmap.fromBytes(v);
    bitmaps.put(dirId, b);
    return b;
  }

  /** Records a new bitmap for {@code dirId} in the batch; visible to lookups once the batch is written. */
  public void putBitmap(WriteBatch batch, long dirId, PartitionBitmap bitmap) throws IOException {
    try {
      batch.put(store.meta(), bitmapKey(dirId), bitmap.toBytes());
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
    bitmaps.invalidate(dirId);
  }

  public void deleteBitmap(WriteBatch batch, long dirId) throws IOException {
    try {
      batch.delete(store.meta(), bitmapKey(dirId));
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
    bitmaps.invalidate(dirId);
  }

  /** Forgets cached bitmaps after a batch that changed them was written. */
  public void invalidateBitmap(long dirId) {
    bitmaps.invalidate(dirId);
  }

  private static byte[] bitmapKey(long dirId) {
    return java.nio.ByteBuffer.allocate(14).put(BITMAP_PREFIX).putLong(dirId).array();
  }

  private static final byte[] BITMAP_PREFIX = {'p', 'b', 'i', 't', 's', '/'};
  private final Cache<Long, PartitionBitmap> bitmaps = CacheBuilder.newBuilder().maximumSize(100_000).build();

  private static byte[] partitionKey(long dirId) {
    return java.nio.ByteBuffer.allocate(13).put(PARTITION_PREFIX).putLong(dirId).array();
  }

  private static final byte[] PARTITION_PREFIX = {'p', 'a', 'r', 't', '/'};

  public void deleteEntry(WriteBatch batch, long parentId, String name) throws IOException {
    try {
      batch.delete(store.entries(), EntryKey.of(parentId, name).encode());
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
    store.nameIndex().delete(batch, parentId, name);
  }

  /** Runs {@code work} under the write lock, writing nothing (a GIGA+ split's freeze point). */
  public void exclusively(Exclusive work) throws IOException {
    lock.writeLock().lock();
    try {
      work.run();
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** True inside {@link #mutate} (a lookup made for a mutation). */
  public boolean mutating() {
    return lock.isWriteLockedByCurrentThread();
  }

  /** Work done under the write lock that writes nothing itself. */
  @FunctionalInterface
  public interface Exclusive {
    void run() throws IOException;
  }

  /** Reads under the read lock. */
  public <T> T read(Work<T> work) throws IOException {
    lock.readLock().lock();
    try {
      return work.run(null);
    } finally {
      lock.readLock().unlock();
    }
  }

  /**
   * Validates and applies a mutation under the write lock, then waits (outside the lock) until
   * it is durable. {@code work} adds its changes to the batch; an exception discards them.
   */
  public <T> T mutate(Work<T> work) throws IOException {
    long ticket;
    T result;
    try (WriteBatch batch = new WriteBatch()) {
      lock.writeLock().lock();
      try {
        result = work.run(batch);
        if (batch.count() == 0) {
          return result;
        }
        store.write(batch);
        ticket = groupCommit.ticket();
        mutations.incrementAndGet();
      } finally {
        lock.writeLock().unlock();
      }
    }
    if (walSync) {
      groupCommit.awaitDurable(ticket);
    }
    return result;
  }

  /** The HDFS-style status of an entry. */
  public FileStatus toStatus(String name, Inode inode) {
    FileStatus.Builder b = FileStatus.newBuilder()
        .setName(name)
        .setType(inode.isDirectory() ? FileType.DIRECTORY : FileType.FILE)
        .setInodeId(inode.inodeId)
        .setPermission(inode.permission)
        .setOwner(principals.nameOf(inode.ownerId))
        .setGroup(principals.nameOf(inode.groupId))
        .setMtime(inode.mtime)
        .setAtime(inode.atime)
        .setZerothSlot(inode.zerothSlot)
        .setUnderConstruction(inode.isUnderConstruction());
    if (!inode.isDirectory()) {
      b.setLength(inode.length).setReplication(inode.replication).setBlockSize(inode.blockSize);
      if (inode.dataObject != null) {
        b.setDataObject(inode.dataObject);
      }
    }
    return b.build();
  }

  /** A unit of work run under the namespace lock; {@code batch} is null for reads. */
  @FunctionalInterface
  public interface Work<T> {
    T run(WriteBatch batch) throws IOException;
  }
}
