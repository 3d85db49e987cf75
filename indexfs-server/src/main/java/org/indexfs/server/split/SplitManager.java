package org.indexfs.server.split;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.indexfs.common.giga.GigaIndex;
import org.indexfs.common.giga.PartitionBitmap;
import org.indexfs.common.schema.Bytes;
import org.indexfs.common.schema.EntryKey;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.PartitionRequest;
import org.indexfs.proto.Request;
import org.indexfs.server.FaultPoints;
import org.indexfs.server.data.DataTier;
import org.indexfs.server.filelease.FileLease;
import org.indexfs.server.filelease.LeaseTable;
import org.indexfs.server.metrics.ServerMetrics;
import org.indexfs.server.metrics.SplitHistory;
import org.indexfs.server.ns.Namespace;
import org.indexfs.server.peer.Peers;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Snapshot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * GIGA+ incremental splitting with SST migration (IndexFS §II-C, DESIGN §4), one split at a time
 * on a background thread:
 * <ol>
 *   <li>a partition of a directory holding more than {@code threshold} entries here picks its next
 *       child {@code i + 2^r} (while the directory spans fewer than all slots) and records a
 *       durable intent;</li>
 *   <li>names moving to the child are frozen (their mutations retry; everything else goes on), and
 *       the moving key range, one contiguous range since indices are read MSB-first, is written
 *       from a snapshot with {@code SstFileWriter} and shipped through the data tier;</li>
 *   <li>the child's slot ingests it and records the partition — the commit point;</li>
 *   <li>this slot deletes the range, adds the child to its bitmap, drops the intent and unfreezes;
 *       lookups of moved names now redirect.</li>
 * </ol>
 * A restart finishes an intent whose child exists and forgets one whose child does not (a later
 * insert splits again). No lock is held across the remote call.
 */
public final class SplitManager implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SplitManager.class);
  private static final byte[] INTENT = "split/".getBytes(StandardCharsets.UTF_8);

  private final Namespace ns;
  private final Partitions partitions;
  private final Peers peers;
  private final DataTier data;
  private final LeaseTable leases;
  private final ServerMetrics metrics;
  private final int threshold;
  private final ExecutorService worker;
  private final Map<Long, AtomicLong> inserts = new ConcurrentHashMap<>();
  private final Set<Long> queued = ConcurrentHashMap.newKeySet();
  private final Set<Long> running = ConcurrentHashMap.newKeySet();
  private final Map<Long, Integer> frozen = new ConcurrentHashMap<>();
  private volatile java.util.function.BooleanSupplier paused = () -> false;

  public SplitManager(Namespace ns, Partitions partitions, Peers peers, DataTier data, LeaseTable leases,
      ServerMetrics metrics, int threshold) {
    this.ns = ns;
    this.leases = leases;
    this.partitions = partitions;
    this.peers = peers;
    this.data = data;
    this.metrics = metrics;
    this.threshold = threshold;
    this.worker = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "indexfs-split-" + ns.slot());
      t.setDaemon(true);
      return t;
    });
    // A split interrupted by a crash may have landed at its receiver: until recover() knows, the
    // moving names take no mutation (one written here now could be deleted with the moved range).
    for (long[] intent : intents()) {
      frozen.put(intent[0], (int) intent[1]);
    }
  }

  /** While {@code condition} holds (safe mode), start no background change. */
  public void pauseWhile(java.util.function.BooleanSupplier condition) {
    this.paused = condition;
  }

  /**
   * While {@code held} says so for a directory (it lies in a localized subtree, IndexFS §II-D), it
   * does not split: a publish into it then stays one slot's atomic ingest. {@link #consider} it after.
   */
  public void holdWhile(java.util.function.LongPredicate held) {
    this.held = held;
  }

  /** Sees soon whether directory {@code dirId} should split (after a bulk ingest, or its hold ended). */
  public void consider(long dirId) {
    if (threshold <= 0 || partitions.slotCount() <= 1 || paused.getAsBoolean() || held.test(dirId)) {
      return;
    }
    if (queued.add(dirId)) {
      worker.execute(() -> {
        queued.remove(dirId);
        try {
          maybeSplit(dirId);
        } catch (IOException | RuntimeException e) {
          LOG.warn("Split of directory {} on slot {} failed; a later insert retries", dirId, ns.slot(), e);
        }
      });
    }
  }

  private volatile java.util.function.LongPredicate held = id -> false;
  private volatile Pinned pinned = (dirId, child) -> false;
  /** Directories whose split a pinned entry held off: looked at again when {@link #unpinned}. */
  private final Set<Long> deferred = ConcurrentHashMap.newKeySet();

  /** Says whether some entry of directory {@code dirId} moving to partition {@code child} must stay here for now. */
  @FunctionalInterface
  public interface Pinned {
    boolean test(long dirId, int child) throws IOException;
  }

  /**
   * While {@code pinned} says so, the directory does not split: an entry a cross-slot rename is
   * moving away (an open {@code rename.out} record) is removed here by the rename's last phase, so
   * it must not move to another partition first — it would survive there (DESIGN §7). The rename
   * says {@link #unpinned} once it settled.
   */
  public void pinWhile(Pinned pinned) {
    this.pinned = pinned;
  }

  /** An entry of {@code dirId} is no longer pinned: a split it held off goes ahead. */
  public void unpinned(long dirId) {
    if (deferred.remove(dirId)) {
      consider(dirId);
    }
  }

  private boolean pinned(long dirId, int child) throws IOException {
    // Marked before asking: a rename that settles meanwhile drops its record first, then finds the mark.
    boolean marked = deferred.add(dirId);
    if (pinned.test(dirId, child)) {
      return true;
    }
    if (marked) {
      deferred.remove(dirId);
    }
    return false;
  }
  private volatile org.indexfs.server.snapshot.SnapshotGate gate;

  /** A split moves entries between slots: it runs only through the snapshot gate's open door. */
  public void useGate(org.indexfs.server.snapshot.SnapshotGate gate) {
    this.gate = gate;
  }

  /** An entry was added to directory {@code dirId} here: now and then, see whether it should split. */
  public void noteInsert(long dirId) {
    if (threshold <= 0 || partitions.slotCount() <= 1 || paused.getAsBoolean()) {
      return; // (safe mode: a later insert splits)
    }
    long n = inserts.computeIfAbsent(dirId, k -> new AtomicLong()).incrementAndGet();
    if (n % Math.max(1, threshold / 8) == 0 && queued.add(dirId)) {
      worker.execute(() -> {
        queued.remove(dirId);
        try {
          maybeSplit(dirId);
        } catch (IOException | RuntimeException e) {
          LOG.warn("Split of directory {} on slot {} failed; a later insert retries", dirId, ns.slot(), e);
        }
      });
    }
  }

  /** True when a mutation of {@code name} in {@code dirId} must wait for a split to end. */
  public boolean isFrozen(long dirId, String name) {
    Integer child = frozen.get(dirId);
    return child != null && GigaIndex.movesTo(org.indexfs.common.schema.NameHash.of(name), child);
  }

  /** True when a mutation of a name hashing to {@code hash} in {@code dirId} must wait for a split to end. */
  public boolean isFrozen(long dirId, long hash) {
    Integer child = frozen.get(dirId);
    return child != null && GigaIndex.movesTo(hash, child);
  }

  /** Splits the partition of {@code dirId} held here if it is over the threshold; true if it split. */
  public boolean maybeSplit(long dirId) throws IOException {
    Inode record = ns.partition(dirId);
    if (record == null || held.test(dirId)) {
      return false;
    }
    int n = partitions.slotCount();
    int mine = partitions.myIndex(record.zerothSlot);
    PartitionBitmap bitmap = ns.bitmap(dirId).copy();
    int child = GigaIndex.nextChild(mine, bitmap, n);
    if (child < 0 || countUpTo(dirId, threshold + 1) <= threshold || pinned(dirId, child)) {
      return false;
    }
    org.indexfs.server.snapshot.SnapshotGate g = gate;
    if (g != null && !g.tryEnter()) {
      return false; // a snapshot's barrier: a later insert splits
    }
    try {
      if (!start(dirId)) {
        return false; // safe mode: a split queued before it began does not start (a later insert splits)
      }
      try {
        return split(record, bitmap, child);
      } finally {
        end(dirId);
      }
    } finally {
      if (g != null) {
        g.exit();
      }
    }
  }

  /**
   * Marks a split of {@code dirId} running, unless background changes are paused: checked and
   * marked under one monitor, so once {@link #awaitIdle} has seen no split running while paused,
   * none starts (safe mode's fence, see there).
   */
  private synchronized boolean start(long dirId) {
    if (paused.getAsBoolean()) {
      return false;
    }
    return running.add(dirId); // false: a recovery is settling this directory's split right now
  }

  private synchronized void end(long dirId) {
    running.remove(dirId);
    notifyAll();
  }

  /**
   * Waits until no split runs on this slot. Called once safe mode holds this slot's background
   * changes ({@link #pauseWhile}), it is the fence that makes safe mode quiet: a split moves
   * entries between two slots in several steps (ingest at the receiver, then the source's bitmap),
   * so one still running after safe mode began would be seen half done by whoever reads the slots
   * one after another — fsck reported the entries it had just ingested as on a slot holding no
   * partition of their directory (issue 37). A split past its freeze point cannot be abandoned, so
   * it is waited for, not stopped.
   */
  public void awaitIdle(long timeoutMs) throws IOException {
    synchronized (this) {
      if (running.isEmpty()) {
        return;
      }
    }
    FaultPoints.at("split.awaited");
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    synchronized (this) {
      while (!running.isEmpty()) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0) {
          throw new org.indexfs.common.IndexFsException(org.indexfs.proto.Code.SERVER_BUSY, "Slot " + ns.slot()
              + " is still splitting directory " + Long.toUnsignedString(running.iterator().next())
              + " after " + timeoutMs + " ms; retry");
        }
        try {
          wait(left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new java.io.InterruptedIOException("Interrupted waiting for a split to end");
        }
      }
    }
  }

  private long countUpTo(long dirId, long limit) {
    byte[] prefix = EntryKey.prefix(dirId);
    long count = 0;
    try (RocksIterator it = ns.store().iterator(ns.store().entries(), null)) {
      for (it.seek(prefix); it.isValid() && Bytes.startsWith(it.key(), prefix) && count < limit; it.next()) {
        count++;
      }
    }
    return count;
  }

  /** False when an entry of the moving range turned out to be pinned (nothing moved; a later look splits). */
  private boolean split(Inode dir, PartitionBitmap bitmap, int child) throws IOException {
    long dirId = dir.inodeId;
    long startNanos = System.nanoTime();
    int receiver = GigaIndex.slotOf(dir.zerothSlot, child, partitions.slotCount());
    ns.mutate(batch -> {
      try {
        // The receiver too: should the directory be dropped meanwhile, it is the slot to tell.
        batch.put(ns.store().meta(), intentKey(dirId), ByteBuffer.allocate(8).putInt(child).putInt(receiver).array());
      } catch (RocksDBException e) {
        throw new IOException(e);
      }
      return null;
    });
    FaultPoints.at("split.recorded");
    Snapshot snapshot = freeze(dirId, child);
    if (snapshot == null) {
      forget(dirId);
      LOG.info("Split of directory {} on slot {} deferred: an entry of partition {} is being renamed to another slot",
          Long.toUnsignedString(dirId), ns.slot(), child);
      return false;
    }
    String shipped = null;
    String shippedAttrs = null;
    String shippedNames = null;
    boolean receiverAsked = false;
    try {
      byte[][] range = movingRange(dirId, child);
      String base = ".splits/" + Long.toUnsignedString(dirId) + "-" + child + "-" + UUID.randomUUID();
      Path local = Files.createTempFile("indexfs-split-" + ns.slot() + "-", ".sst");
      Files.delete(local);
      long moved = ns.store().exportRange(snapshot, range[0], range[1], local);
      if (moved > 0) {
        shipped = base + ".sst";
        data.upload(local, shipped);
        Files.deleteIfExists(local);
        // The moving names' listing-order records travel beside them (DESIGN §13).
        if (ns.store().nameIndex().exportMoving(snapshot, dirId, child, local) > 0) {
          shippedNames = base + "-names.sst";
          data.upload(local, shippedNames);
          Files.deleteIfExists(local);
        }
      }
      shippedAttrs = shipAttrs(snapshot, range, dirId, child);
      FaultPoints.at("split.shipped");
      PartitionBitmap after = bitmap.copy();
      after.add(child);
      receiverAsked = true;
      try {
        peers.call(receiver, Request.newBuilder().setPartition(PartitionRequest.newBuilder()
            .setAction(PartitionRequest.Action.INGEST).setDirId(dirId).setIndex(child)
            .setZerothSlot(dir.zerothSlot).setBitmap(com.google.protobuf.ByteString.copyFrom(after.toBytes()))
            .setSplitFile(shipped == null ? "" : shipped).setNamesFile(shippedNames == null ? "" : shippedNames)
            .putAllPrincipals(ns.principals().table())
            .setPermission(dir.permission)
            .setOwner(ns.principals().nameOf(dir.ownerId)).setGroup(ns.principals().nameOf(dir.groupId))
            .setMtime(dir.mtime).addAllLeases(openLeases(snapshot, range))
            .setFlags(dir.flags & Inode.RECORD_FLAGS & ~Inode.FLAG_SEALED)
            .setAcl(dir.acl == null ? com.google.protobuf.ByteString.EMPTY : com.google.protobuf.ByteString.copyFrom(dir.acl))
            .setAttrsFile(shippedAttrs == null ? "" : shippedAttrs)));
      } catch (IOException unknown) {
        // Lost answer or refusal: ask the receiver what it holds now (or leave it to recover()).
        settle(dirId, child, receiver);
        throw unknown;
      }
      FaultPoints.at("split.ingested");
      finish(dirId, child, receiver);
      metrics.splitDone(new SplitHistory.Split(dirId, child, moved, ns.slot(), receiver, System.currentTimeMillis(),
          (System.nanoTime() - startNanos) / 1_000_000));
      LOG.info("Split directory {}: partition {} moved {} entries from slot {} to slot {}",
          Long.toUnsignedString(dirId), child, moved, ns.slot(), receiver);
      return true;
    } finally {
      if (!receiverAsked) {
        frozen.remove(dirId);
      }
      ns.store().releaseSnapshot(snapshot);
      for (String file : new String[] {shipped, shippedNames, shippedAttrs}) {
        if (file != null) {
          try {
            data.delete(file);
          } catch (IOException e) {
            LOG.debug("Shipped split file {} stays for the scrubber: {}", file, e.toString());
          }
        }
      }
    }
  }

  /**
   * The xattr and ACL rows of the moving entries, as an SST file for the receiver's attrs table
   * (they are keyed by inode id, so they are not inside the moving key range); null when none has any.
   */
  private String shipAttrs(Snapshot snapshot, byte[][] range, long dirId, int child) throws IOException {
    java.util.SortedMap<byte[], byte[]> rows = new java.util.TreeMap<>(java.util.Arrays::compareUnsigned);
    for (Inode entry : entries(snapshot, range, true)) {
      for (org.indexfs.server.store.AttrTable.Row r : ns.attrs().rows(entry.inodeId, snapshot)) {
        rows.put(r.key(), r.value());
      }
    }
    if (rows.isEmpty()) {
      return null;
    }
    Path local = Files.createTempFile("indexfs-split-attrs-" + ns.slot() + "-", ".sst");
    Files.delete(local);
    ns.store().exportRows(rows, local);
    String name = ".splits/" + Long.toUnsignedString(dirId) + "-" + child + "-" + UUID.randomUUID() + "-attrs.sst";
    try {
      data.upload(local, name);
    } finally {
      Files.deleteIfExists(local);
    }
    return name;
  }

  /** Entries in {@code range} as {@code snapshot} (null: now) sees them; only those with xattrs or an ACL if {@code withAttrs}. */
  private List<Inode> entries(Snapshot snapshot, byte[][] range, boolean withAttrs) {
    List<Inode> out = new ArrayList<>();
    try (org.rocksdb.ReadOptions read = new org.rocksdb.ReadOptions();
        RocksIterator it = ns.store().iterator(ns.store().entries(), snapshot == null ? null : read.setSnapshot(snapshot))) {
      for (it.seek(range[0]); it.isValid() && java.util.Arrays.compareUnsigned(it.key(), range[1]) < 0; it.next()) {
        Inode entry = Inode.decode(it.value());
        if (!withAttrs || org.indexfs.server.store.AttrTable.hasRows(entry)) {
          out.add(entry);
        }
      }
    }
    return out;
  }

  /**
   * The write leases of files in the moving range that are open: they move with their entries,
   * so a writer carries on at the receiver (its flush or close finds the file there).
   */
  private List<com.google.protobuf.ByteString> openLeases(Snapshot snapshot, byte[][] range) throws IOException {
    List<com.google.protobuf.ByteString> out = new ArrayList<>();
    for (long inodeId : openFiles(snapshot, range)) {
      FileLease lease = leases.get(inodeId);
      if (lease != null) {
        out.add(com.google.protobuf.ByteString.copyFrom(lease.encode()));
      }
    }
    return out;
  }

  private List<Long> openFiles(Snapshot snapshot, byte[][] range) {
    List<Long> out = new ArrayList<>();
    try (org.rocksdb.ReadOptions read = new org.rocksdb.ReadOptions();
        RocksIterator it = ns.store().iterator(ns.store().entries(), snapshot == null ? null : read.setSnapshot(snapshot))) {
      for (it.seek(range[0]); it.isValid() && java.util.Arrays.compareUnsigned(it.key(), range[1]) < 0; it.next()) {
        Inode entry = Inode.decode(it.value());
        if (entry.isUnderConstruction()) {
          out.add(entry.inodeId);
        }
      }
    }
    return out;
  }

  /**
   * Under the write lock: from here on, mutations of moving names wait; the snapshot sees every
   * earlier one. Null (nothing frozen) when a moving entry is pinned: checked here, where no rename
   * can record its intent meanwhile (that takes the same lock, and afterwards finds the name frozen).
   */
  private Snapshot freeze(long dirId, int child) throws IOException {
    Snapshot[] taken = {null};
    ns.exclusively(() -> {
      if (pinned(dirId, child)) {
        return;
      }
      frozen.put(dirId, child);
      taken[0] = ns.store().snapshot();
    });
    return taken[0];
  }

  /** The keys of the entries moving to {@code child}: one contiguous range. */
  public static byte[][] movingRange(long dirId, int child) {
    int radix = GigaIndex.bitLength(child);
    long lo = Long.reverse(child);
    long hi = lo + (1L << (64 - radix));
    byte[] from = ByteBuffer.allocate(16).putLong(dirId).putLong(lo).array();
    byte[] to = hi == 0 ? EntryKey.prefix(dirId + 1) : ByteBuffer.allocate(16).putLong(dirId).putLong(hi).array();
    return new byte[][] {from, to};
  }

  /**
   * The receiver holds the child: drop the moved range here and start redirecting. If the directory
   * was dropped here while the split ran (deleted: a DROP went down the split tree before this
   * slot's bitmap named the child), the receiver holds a partition nobody will ever name: it is told
   * to drop it too, and the intent stays until it has.
   */
  private void finish(long dirId, int child, int receiver) throws IOException {
    byte[][] range = movingRange(dirId, child);
    boolean dropped = ns.mutate(batch -> {
      boolean gone = ns.partition(dirId) == null;
      for (long moved : openFiles(null, range)) {
        leases.release(batch, moved);
      }
      for (Inode moved : entries(null, range, true)) {
        ns.attrs().deleteAll(batch, moved.inodeId); // they live at the receiver now
      }
      try {
        batch.deleteRange(ns.store().entries(), range[0], range[1]);
        if (!gone) {
          batch.delete(ns.store().meta(), intentKey(dirId));
        }
      } catch (RocksDBException e) {
        throw new IOException(e);
      }
      ns.store().nameIndex().deleteMoving(batch, dirId, child);
      if (!gone) {
        PartitionBitmap bitmap = ns.bitmap(dirId).copy();
        bitmap.add(child);
        ns.putBitmap(batch, dirId, bitmap);
      }
      return gone;
    });
    ns.invalidateBitmap(dirId);
    ns.forgetDirectory(dirId);
    frozen.remove(dirId);
    if (dropped) {
      dropAtReceiver(dirId, receiver);
    }
  }

  /** Tells {@code receiver} to drop (and reclaim) its partition of the dropped {@code dirId}, then forgets the split. */
  private void dropAtReceiver(long dirId, int receiver) throws IOException {
    if (receiver < 0) {
      LOG.warn("Directory {} was dropped during a split recorded before receivers were; its new partition "
          + "stays for fsck", Long.toUnsignedString(dirId));
    } else {
      LOG.info("Directory {} was dropped on slot {} during its split: slot {} drops the partition it received",
          Long.toUnsignedString(dirId), ns.slot(), receiver);
      peers.call(receiver, Request.newBuilder().setPartition(PartitionRequest.newBuilder()
          .setAction(PartitionRequest.Action.DROP).setDirId(dirId)
          .setPath("directory " + Long.toUnsignedString(dirId))));
    }
    forget(dirId);
  }

  private List<long[]> intents() {
    List<long[]> out = new ArrayList<>();
    try (RocksIterator it = ns.store().iterator(ns.store().meta(), null)) {
      for (it.seek(INTENT); it.isValid() && Bytes.startsWith(it.key(), INTENT); it.next()) {
        ByteBuffer v = ByteBuffer.wrap(it.value());
        out.add(new long[] {ByteBuffer.wrap(it.key(), INTENT.length, 8).getLong(), v.getInt(),
            v.remaining() >= 4 ? v.getInt() : -1});
      }
    }
    return out;
  }

  /** Finishes the split of {@code dirId} if its receiver holds the child, else forgets it; unfreezes either way. */
  private void settle(long dirId, int child, int recorded) throws IOException {
    Inode record = ns.partition(dirId);
    int receiver = record != null ? GigaIndex.slotOf(record.zerothSlot, child, partitions.slotCount()) : recorded;
    boolean landed = receiver >= 0 && peers.call(receiver, Request.newBuilder().setPartition(
        PartitionRequest.newBuilder().setAction(PartitionRequest.Action.HAS_PARTITION).setDirId(dirId)))
        .getBool().getValue();
    if (landed) {
      finish(dirId, child, receiver);
      return;
    }
    forget(dirId);
    frozen.remove(dirId);
  }

  /** Drops the split record of {@code dirId}: nothing of it happened. */
  private void forget(long dirId) throws IOException {
    ns.mutate(batch -> {
      try {
        batch.delete(ns.store().meta(), intentKey(dirId));
      } catch (RocksDBException e) {
        throw new IOException(e);
      }
      return null;
    });
  }

  /** Splits recorded here and not yet finished (a running one, or one a restart must settle). */
  public int inFlight() {
    return intents().size();
  }

  /** The directories with a split recorded here and not finished. */
  public List<Long> pendingSplits() {
    List<Long> out = new ArrayList<>();
    for (long[] intent : intents()) {
      out.add(intent[0]);
    }
    return out;
  }

  /** After a restart: finish splits whose child exists, forget the others (none while paused: safe mode). */
  public int recover() throws IOException {
    List<long[]> pending = intents();
    for (long[] intent : pending) {
      // Settling moves entries too: not while paused (safe mode), nor beside a split running here.
      if (start(intent[0])) {
        try {
          settle(intent[0], (int) intent[1], (int) intent[2]);
        } finally {
          end(intent[0]);
        }
      }
    }
    return pending.size();
  }

  private static byte[] intentKey(long dirId) {
    return ByteBuffer.allocate(INTENT.length + 8).put(INTENT).putLong(dirId).array();
  }

  @Override
  public void close() {
    worker.shutdownNow();
    try {
      worker.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
