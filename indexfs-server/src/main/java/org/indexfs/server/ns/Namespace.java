package org.indexfs.server.ns;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
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
import org.indexfs.server.call.Call;
import org.indexfs.server.call.Commit;
import org.indexfs.server.store.AttrTable;
import org.indexfs.server.store.GroupCommit;
import org.indexfs.server.store.InodeAllocator;
import org.indexfs.server.store.MetadataStore;
import org.indexfs.server.store.Principals;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * What every operation works on: one slot's tables, their locks and caches, ids, principals and
 * durability (DESIGN §10).
 *
 * <p>Concurrency: reads and ordinary mutations share the namespace; a mutation locks only the
 * directories whose entries it changes ({@link Mutation}). Operations that change the shape of the
 * namespace — renaming, deleting or re-permissioning a directory, splitting a partition — run
 * alone ({@link #mutate}, {@link #exclusively}). So while a shared operation runs, every existing
 * directory on this slot keeps its place and attributes, and a walk needs no locks at all. RocksDB
 * writes happen under the directory locks only; durability (the WAL fsync) comes afterwards from
 * {@link GroupCommit}, outside every lock, and the reply of a dispatched call waits for it without
 * holding a thread ({@link Commit}).
 *
 * <p>Directory entries and partition records are cached in memory (the root permanently), so a walk
 * of a warm path reads RocksDB only for its last component. Writers publish the new value after
 * their batch is written and before they unlock; a reader fills a missing entry from RocksDB and
 * drops it again if a writer of that entry ran meanwhile, so the cache never holds a stale value.
 */
public final class Namespace implements AutoCloseable {
  static final int STRIPES = 1024;

  private final MetadataStore store;
  private final Principals principals;
  private final InodeAllocator inodes;
  private final GroupCommit groupCommit;
  private final int slot;
  private final ReentrantReadWriteLock shape = new ReentrantReadWriteLock();
  private final ReentrantLock[] stripes = new ReentrantLock[STRIPES];
  /**
   * The mutation whose locks this thread holds, for {@link #putEntry} and friends to record into.
   * Not a call's state: background splits, recovery and bootstrap open mutations without a call,
   * so this is the scope of a lock held by a thread (as a lock's owner thread is), kept on purpose.
   */
  private final ThreadLocal<Mutation> current = new ThreadLocal<>();
  private final AtomicLong mutations = new AtomicLong();
  private final EntryCache cache;
  private final AttrTable attrs;
  private volatile Inode root;

  public Namespace(MetadataStore store, int slot, boolean walSync, String rootOwner, String rootGroup)
      throws IOException {
    this(store, slot, walSync, rootOwner, rootGroup, 200_000);
  }

  public Namespace(MetadataStore store, int slot, boolean walSync, String rootOwner, String rootGroup,
      int cacheEntries) throws IOException {
    this.store = store;
    this.slot = slot;
    this.principals = new Principals(store);
    this.inodes = new InodeAllocator(store, slot);
    this.attrs = new AttrTable(store);
    for (int i = 0; i < STRIPES; i++) {
      stripes[i] = new ReentrantLock();
    }
    this.cache = new EntryCache(cacheEntries);
    if (slot == 0) {
      ensureRoot(rootOwner, rootGroup);
    }
    this.groupCommit = new GroupCommit(store, walSync, slot);
  }

  static int stripeOf(long dirId) {
    long h = dirId * 0x9E3779B97F4A7C15L;
    return (int) (h >>> 54) & (STRIPES - 1);
  }

  private void ensureRoot(String owner, String group) throws IOException {
    byte[] key = rootKey();
    byte[] existing = store.get(store.entries(), key);
    if (existing != null) {
      root = withAcl(Inode.decode(existing));
      if (store.get(store.meta(), partitionKey(InodeIds.ROOT)) == null) {
        try (WriteBatch batch = new WriteBatch()) {
          batch.put(store.meta(), partitionKey(InodeIds.ROOT), partitionRecord(root).encodeRecord());
          store.writeDurably(batch);
        } catch (RocksDBException e) {
          throw new IOException("Cannot record the root's partition", e);
        }
      }
      return;
    }
    Inode r = new Inode();
    r.type = Inode.TYPE_DIRECTORY;
    r.inodeId = InodeIds.ROOT;
    r.permission = Permission.DEFAULT_DIR;
    r.ownerId = principals.idOf(owner);
    r.groupId = principals.idOf(group);
    r.mtime = r.atime = System.currentTimeMillis();
    r.zerothSlot = 0;
    try (WriteBatch batch = new WriteBatch()) {
      batch.put(store.entries(), key, r.encode());
      batch.put(store.meta(), partitionKey(InodeIds.ROOT), partitionRecord(r).encodeRecord());
      store.writeDurably(batch);
    } catch (RocksDBException e) {
      throw new IOException("Cannot create the root", e);
    }
    root = r;
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

  /** Extended attributes and ACLs of the entries on this slot. */
  public AttrTable attrs() {
    return attrs;
  }

  /** An entry read from the entries table with its ACL (kept in the attrs table) attached when it has one. */
  public Inode withAcl(Inode entry) throws IOException {
    if (entry.has(Inode.FLAG_ACL) && entry.acl == null) {
      entry.acl = attrs.acl(entry.inodeId);
    }
    return entry;
  }

  public long newInodeId() throws IOException {
    return inodes.next();
  }

  /** Reserves {@code count} consecutive inode ids for a bulk-insertion client; returns the first. */
  public long reserveInodeIds(long count) throws IOException {
    return inodes.reserve(count);
  }

  public long mutationCount() {
    return mutations.get();
  }

  public GroupCommit groupCommit() {
    return groupCommit;
  }

  /** Directory entries held in memory (metrics). */
  public long cachedEntries() {
    return cache.size();
  }

  /** The root directory's inode (only slot 0 holds it). */
  public Inode root() throws IOException {
    Inode r = root;
    if (r == null) {
      throw new IOException("Root entry missing on slot " + slot);
    }
    return r;
  }

  /** The entry {@code name} in directory {@code parentId}, or null. Shared: copy before changing it. */
  public Inode lookup(long parentId, String name) throws IOException {
    return cache.entry(parentId, name, () -> {
      byte[] v = store.get(store.entries(), EntryKey.of(parentId, name).encode());
      return v == null ? null : withAcl(Inode.decode(v));
    });
  }

  /**
   * Writes an entry. A directory homed on this slot gets its partition record refreshed in the
   * same batch, so the record's access attributes never lag behind the entry's.
   */
  public void putEntry(WriteBatch batch, long parentId, String name, Inode inode) throws IOException {
    writeEntry(batch, parentId, name, inode);
    if (inode.isDirectory() && inode.zerothSlot == slot) {
      putPartition(batch, inode);
    }
  }

  /**
   * Rewrites an entry whose times alone changed (a directory's mtime when an entry comes or
   * goes): its partition record keeps only access attributes, so it is left as it is.
   */
  public void putTimes(WriteBatch batch, long parentId, String name, Inode inode) throws IOException {
    writeEntry(batch, parentId, name, inode);
  }

  private void writeEntry(WriteBatch batch, long parentId, String name, Inode inode) throws IOException {
    try {
      byte[] key = parentId == InodeIds.NO_PARENT ? rootKey() : EntryKey.of(parentId, name).encode();
      batch.put(store.entries(), key, inode.encode());
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
    if (parentId != InodeIds.NO_PARENT) {
      store.nameIndex().put(batch, parentId, name, inode);
    }
    mutation().noteEntry(parentId, name, inode.isDirectory() ? inode.copy() : null);
  }

  public void deleteEntry(WriteBatch batch, long parentId, String name) throws IOException {
    try {
      batch.delete(store.entries(), EntryKey.of(parentId, name).encode());
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
    store.nameIndex().delete(batch, parentId, name);
    mutation().noteEntry(parentId, name, null);
  }

  /**
   * The partition record of directory {@code dirId} if this slot is its home: the directory's
   * attributes (a copy of its entry, which may live on another slot) for local permission checks
   * (DESIGN §3). Null when this slot holds no partition of it. Shared: copy before changing it.
   */
  public Inode partition(long dirId) throws IOException {
    return cache.partition(dirId, () -> {
      byte[] v = store.get(store.meta(), partitionKey(dirId));
      return v == null ? null : Inode.decode(v);
    });
  }

  private static Inode partitionRecord(Inode dir) {
    Inode record = dir.copy();
    record.flags = dir.flags & Inode.RECORD_FLAGS;
    record.inlineData = null;
    record.dataObject = null;
    return record;
  }

  /**
   * The key and value of directory {@code dir}'s partition record, for a bulk ingest that writes
   * records beside the entries it ingests (then {@link #forgetDirectory} the directory).
   */
  public static byte[][] partitionRecordOf(Inode dir) {
    return new byte[][] {partitionKey(dir.inodeId), partitionRecord(dir).encode()};
  }

  public static byte[] partitionKeyOf(long dirId) {
    return partitionKey(dirId);
  }

  public void putPartition(WriteBatch batch, Inode dir) throws IOException {
    Inode record = partitionRecord(dir);
    try {
      batch.put(store.meta(), partitionKey(dir.inodeId), record.encodeRecord());
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
    mutation().notePartition(dir.inodeId, record);
  }

  public void deletePartition(WriteBatch batch, long dirId) throws IOException {
    try {
      batch.delete(store.meta(), partitionKey(dirId));
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
    mutation().notePartition(dirId, null);
  }

  /**
   * Forgets what is cached of directory {@code dirId}'s entries: call after a range of them moved
   * in or out in bulk (a split's deleteRange or ingest), which bypasses per-entry bookkeeping.
   */
  public void forgetDirectory(long dirId) {
    cache.forgetDirectory(dirId);
  }

  /** {@link #forgetDirectory} for every directory a bulk ingest touched or created, in one pass. */
  public void forgetDirectories(java.util.Set<Long> dirIds) {
    cache.forgetDirectories(dirIds);
  }

  /**
   * The GIGA+ bitmap this slot knows for directory {@code dirId} (DESIGN §4): exact for the
   * partitions this slot split off itself, possibly missing later splits made elsewhere (a
   * lookup then lands on a slot that redirects). Cached; only splits and ingests change it, and
   * they run alone in the namespace.
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

  /**
   * Runs {@code action} once the current mutation's batch is written, still under its locks (or
   * never, if the batch is discarded): for in-memory state that mirrors what the batch records.
   */
  public void afterWrite(Runnable action) {
    mutation().afterWrite(action);
  }

  /** Key prefixes of partition records and of bitmaps in the meta column family (admin reads them raw). */
  public static byte[] partitionRecordPrefix() {
    return PARTITION_PREFIX.clone();
  }

  public static byte[] bitmapPrefix() {
    return BITMAP_PREFIX.clone();
  }

  private Mutation mutation() {
    Mutation m = current.get();
    if (m == null) {
      throw new IllegalStateException("Entries are written inside Namespace.mutate only");
    }
    return m;
  }

  /** Runs {@code work} alone in the namespace, writing nothing (a GIGA+ split's freeze point). */
  public void exclusively(Exclusive work) throws IOException {
    shape.writeLock().lock();
    try {
      work.run();
    } finally {
      shape.writeLock().unlock();
    }
  }

  /** True inside a mutation (a lookup made for a mutation). */
  public boolean mutating() {
    return current.get() != null;
  }

  /** Work done alone in the namespace that writes nothing itself. */
  @FunctionalInterface
  public interface Exclusive {
    void run() throws IOException;
  }

  /** Reads alongside other reads and ordinary mutations; never beside a change of the namespace's shape. */
  public <T> T read(Work<T> work) throws IOException {
    shape.readLock().lock();
    try {
      return work.run(null);
    } finally {
      shape.readLock().unlock();
    }
  }

  /**
   * As {@link #mutate}, for a step that prepares a call's change but is not it (an intent written
   * before asking another slot): the call's applied mark ({@link Call#mark}) stays for the
   * batch that makes the change. Were the mark written here, a call that then answered "retry"
   * (a routing answer) would find itself marked applied on its retry and be answered as done.
   */
  public <T> T prepare(Work<T> work) throws IOException {
    return withoutCallMark(() -> mutate(work));
  }

  /** Runs {@code step} (bookkeeping beside a call, e.g. driving a home sync) without the call's applied mark. */
  public <T> T withoutCallMark(Step<T> step) throws IOException {
    Call call = Call.current();
    byte[][] mark = call == null ? null : call.mark();
    if (mark == null) {
      return step.run();
    }
    call.mark(null);
    try {
      return step.run();
    } finally {
      call.mark(mark);
    }
  }

  /** A step of work outside any one batch. */
  @FunctionalInterface
  public interface Step<T> {
    T run() throws IOException;
  }

  /**
   * A mutation that runs alone in the namespace (renames, directory permission changes, splits,
   * recovery): {@code work} adds its changes to the batch; an exception discards them. Waits until
   * the batch is durable before returning, so multi-step operations never run ahead of their log.
   */
  public <T> T mutate(Work<T> work) throws IOException {
    T result = run(m -> work.run(m.batch()), true, false, true);
    return result;
  }

  /**
   * A mutation that locks only the directories it changes ({@link Mutation#lock}), or escalates to
   * running alone ({@link Mutation#exclusive}). {@code work} may be run more than once, so it must
   * not act outside the batch before it returns. Inside a dispatched {@link Call} the call's reply
   * waits for the fsync instead of this thread ({@link Commit#durability}).
   */
  public <T> T mutateLocked(LockedWork<T> work) throws IOException {
    return run(work, false, true, true);
  }

  /**
   * As {@link #mutateLocked}, for bookkeeping that changes no entry (the retry cache's record of an
   * answer): it is not counted as a mutation of the namespace, and nobody waits for its fsync (a
   * sequential client would otherwise pay two fsyncs per call).
   */
  public <T> T bookkeep(LockedWork<T> work) throws IOException {
    return run(work, false, true, false);
  }

  private <T> T run(LockedWork<T> work, boolean exclusive, boolean deferrable, boolean counted) throws IOException {
    if (current.get() != null) {
      throw new IllegalStateException("Nested namespace mutation");
    }
    if (!deferrable && groupCommit.syncs()) {
      // Waits for its fsync before returning: not on an I/O thread.
      org.indexfs.server.Blocking.check("a mutation that waits for its fsync");
    }
    Call call = Call.current();
    int[] prelocked = null;
    boolean restartAlone = exclusive;
    while (true) {
      boolean alone = restartAlone;
      if (alone) {
        shape.writeLock().lock();
      } else {
        shape.readLock().lock();
      }
      Mutation m = null;
      long ticket = 0;
      boolean early = false;
      T result;
      try {
        m = new Mutation(stripes, alone, prelocked);
        current.set(m);
        result = work.run(m);
        WriteBatch batch = m.batch();
        if (batch.count() > 0) {
          Commit.mark(call, batch, store.calls());
          store.write(batch);
          Commit.written(call);
          // Bookkeeping (a retry-cache answer) waits for no fsync of its own: the next sync covers
          // it, and if a crash loses it, the call's mark — durable with the change — still answers.
          ticket = counted ? groupCommit.ticket() : 0;
          early = m.acknowledgeBeforeSync();
          if (counted) {
            mutations.incrementAndGet();
          }
          for (Mutation.CacheUpdate u : m.updates()) {
            if (u.partition()) {
              cache.publishPartition(u.parentId(), u.inode());
            } else if (u.parentId() == InodeIds.NO_PARENT) {
              root = u.inode();
            } else {
              cache.publishEntry(u.parentId(), u.name(), u.inode());
            }
          }
          for (Runnable action : m.afterWriteActions()) {
            action.run();
          }
        }
      } catch (Mutation.Restart restart) {
        restartAlone |= restart.exclusive;
        prelocked = restart.stripes;
        continue;
      } finally {
        current.remove();
        if (m != null) {
          m.release();
        }
        if (alone) {
          shape.writeLock().unlock();
        } else {
          shape.readLock().unlock();
        }
      }
      if (ticket > 0) {
        Commit.durability(call, ticket, early, deferrable, groupCommit);
      }
      return result;
    }
  }

  /**
   * Waits until what the running call wrote is durable: for the step of an operation that tells
   * another server about it. Not on an I/O thread.
   */
  public void awaitDeferred() throws IOException {
    Commit.awaitWritten(groupCommit);
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
        .setUnderConstruction(inode.isUnderConstruction())
        .setHasAcl(inode.has(Inode.FLAG_ACL));
    if (!inode.isDirectory()) {
      b.setLength(inode.length).setReplication(inode.replication).setBlockSize(inode.blockSize);
      if (inode.dataObject != null) {
        b.setDataObject(inode.dataObject);
      }
    }
    return b.build();
  }

  @Override
  public void close() {
    groupCommit.close();
  }

  /** A unit of work run under the namespace lock; {@code batch} is null for reads. */
  @FunctionalInterface
  public interface Work<T> {
    T run(WriteBatch batch) throws IOException;
  }

  /** A mutation's work, given the {@link Mutation} to lock directories in and fill the batch of. */
  @FunctionalInterface
  public interface LockedWork<T> {
    T run(Mutation m) throws IOException;
  }
}
