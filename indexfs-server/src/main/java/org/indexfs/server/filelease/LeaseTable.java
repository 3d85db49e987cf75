package org.indexfs.server.filelease;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.indexfs.common.schema.Bytes;
import org.indexfs.server.ns.Namespace;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;

/**
 * Single-writer file leases, as HDFS's {@code LeaseManager} keeps them: a file open for writing has
 * exactly one holder (a client id), and a holder keeps all its leases alive by renewing. A holder
 * silent for the soft limit can be preempted by another writer; one silent for the hard limit has
 * its files recovered by the server ({@link LeaseMonitor}).
 *
 * <p>Leases are durable records ({@code lease/<inode id>} in the meta column family), written in
 * the same batch as the entry change that opens, moves or closes the file, so a restart still
 * refuses a second writer. They are mirrored in memory (loaded at start, updated once each batch
 * is written), indexed by holder, so a writer's calls read no lease from RocksDB and the monitor
 * visits only the holders that went silent. Renewal times are soft state: after a restart every
 * holder starts a fresh period, as in HDFS.
 */
public final class LeaseTable {
  /** Holder of a file the server is recovering (HDFS: the NameNode's own lease holder). */
  public static final String RECOVERY_HOLDER = "indexfs-recovery";
  /** Holder of the files a concat is working on; a concat that died with the server is recovered. */
  public static final String CONCAT_HOLDER = "indexfs-concat";
  private static final byte[] PREFIX = "lease/".getBytes(StandardCharsets.UTF_8);

  private final Namespace ns;
  private final long softLimitNanos;
  private final long hardLimitNanos;
  private final long startNanos = System.nanoTime();
  private final Map<String, Long> lastRenewal = new ConcurrentHashMap<>();
  private final Set<Long> concatsRunning = ConcurrentHashMap.newKeySet();
  private final Map<Long, FileLease> byInode = new ConcurrentHashMap<>();
  private final Map<String, Set<Long>> byHolder = new ConcurrentHashMap<>();

  public LeaseTable(Namespace ns, long softLimitMs, long hardLimitMs) {
    if (softLimitMs <= 0 || hardLimitMs < softLimitMs) {
      throw new IllegalArgumentException("Lease limits need 0 < soft (" + softLimitMs + " ms) <= hard ("
          + hardLimitMs + " ms)");
    }
    this.ns = ns;
    this.softLimitNanos = TimeUnit.MILLISECONDS.toNanos(softLimitMs);
    this.hardLimitNanos = TimeUnit.MILLISECONDS.toNanos(hardLimitMs);
    for (FileLease lease : all(null)) {
      remember(lease);
    }
  }

  private void remember(FileLease lease) {
    FileLease old = byInode.put(lease.inodeId(), lease);
    if (old != null && !old.holder().equals(lease.holder())) {
      unindex(old);
    }
    byHolder.computeIfAbsent(lease.holder(), h -> ConcurrentHashMap.newKeySet()).add(lease.inodeId());
  }

  private void forget(long inodeId) {
    FileLease old = byInode.remove(inodeId);
    if (old != null) {
      unindex(old);
    }
  }

  private void unindex(FileLease lease) {
    byHolder.computeIfPresent(lease.holder(), (h, ids) -> {
      ids.remove(lease.inodeId());
      return ids.isEmpty() ? null : ids;
    });
  }

  public long softLimitMs() {
    return TimeUnit.NANOSECONDS.toMillis(softLimitNanos);
  }

  private static byte[] key(long inodeId) {
    return Bytes.concat(PREFIX, ByteBuffer.allocate(8).putLong(inodeId).array());
  }

  /** The lease on {@code inodeId}, or null when nobody is writing it. */
  public FileLease get(long inodeId) {
    return byInode.get(inodeId);
  }

  /** Gives {@code lease} to its holder in the caller's batch; the holder counts as alive. */
  public void grant(WriteBatch batch, FileLease lease) throws IOException {
    put(batch, lease);
    renew(lease.holder());
  }

  /** Records {@code lease} in the caller's batch (a move, a hand-over to the server). */
  public void put(WriteBatch batch, FileLease lease) throws IOException {
    try {
      batch.put(ns.store().meta(), key(lease.inodeId()), lease.encode());
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
    ns.afterWrite(() -> remember(lease));
  }

  /** Removes the lease on {@code inodeId} in the caller's batch: the file is closed or gone. */
  public void release(WriteBatch batch, long inodeId) throws IOException {
    try {
      batch.delete(ns.store().meta(), key(inodeId));
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
    ns.afterWrite(() -> forget(inodeId));
  }

  /** Every lease, in inode order. */
  public List<FileLease> all() {
    List<FileLease> out = new ArrayList<>(byInode.values());
    out.sort(java.util.Comparator.comparingLong(FileLease::inodeId));
    return out;
  }

  /** The leases of every holder silent past the hard limit: what the monitor must recover. */
  public List<FileLease> ofHoldersPastHardLimit() {
    List<FileLease> out = new ArrayList<>();
    byHolder.forEach((holder, ids) -> {
      if (hardLimitExpired(holder)) {
        for (long id : ids) {
          FileLease lease = byInode.get(id);
          if (lease != null) {
            out.add(lease);
          }
        }
      }
    });
    return out;
  }

  /** Leases the server itself holds (recoveries and concats in progress): the monitor drives them. */
  public List<FileLease> internal() {
    List<FileLease> out = new ArrayList<>();
    for (String holder : List.of(RECOVERY_HOLDER, CONCAT_HOLDER)) {
      for (long id : byHolder.getOrDefault(holder, Set.of())) {
        FileLease lease = byInode.get(id);
        if (lease != null) {
          out.add(lease);
        }
      }
    }
    return out;
  }

  /** Every durable lease as {@code readOptions} see them (the scrubber reads them from a snapshot). */
  public List<FileLease> all(ReadOptions readOptions) {
    List<FileLease> out = new ArrayList<>();
    try (RocksIterator it = ns.store().iterator(ns.store().meta(), readOptions)) {
      for (it.seek(PREFIX); it.isValid() && Bytes.startsWith(it.key(), PREFIX); it.next()) {
        out.add(FileLease.decode(it.value()));
      }
    }
    return out;
  }

  /** How many leases are held (files open for writing here). */
  public long count() {
    long n = 0;
    try (RocksIterator it = ns.store().iterator(ns.store().meta(), null)) {
      for (it.seek(PREFIX); it.isValid() && Bytes.startsWith(it.key(), PREFIX); it.next()) {
        n++;
      }
    }
    return n;
  }

  /** The holder is alive: every one of its leases starts a new period (HDFS renewLease). */
  public void renew(String holder) {
    lastRenewal.put(holder, System.nanoTime());
  }

  private long silentNanos(String holder) {
    return System.nanoTime() - lastRenewal.getOrDefault(holder, startNanos);
  }

  public boolean softLimitExpired(String holder) {
    return silentNanos(holder) > softLimitNanos;
  }

  public boolean hardLimitExpired(String holder) {
    return !isInternal(holder) && silentNanos(holder) > hardLimitNanos;
  }

  public static boolean isInternal(String holder) {
    return RECOVERY_HOLDER.equals(holder) || CONCAT_HOLDER.equals(holder);
  }

  /** A concat of this process holds {@code inodeId} (its leases say {@link #CONCAT_HOLDER}). */
  public void concatStarted(long inodeId) {
    concatsRunning.add(inodeId);
  }

  public void concatEnded(long inodeId) {
    concatsRunning.remove(inodeId);
  }

  /** A {@link #CONCAT_HOLDER} lease no running concat owns: left behind by a crash. */
  public boolean abandonedConcat(FileLease lease) {
    return CONCAT_HOLDER.equals(lease.holder()) && !concatsRunning.contains(lease.inodeId());
  }

  /** Forgets holders silent past the hard limit (their leases are recovered by then). */
  void forgetSilentHolders() {
    lastRenewal.entrySet().removeIf(e -> System.nanoTime() - e.getValue() > 2 * hardLimitNanos);
  }
}
