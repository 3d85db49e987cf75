package org.indexfs.server.filelease;

import java.io.IOException;
import org.indexfs.common.schema.Inode;
import org.indexfs.server.Periodic;
import org.indexfs.server.data.DataTier;
import org.indexfs.server.ns.Namespace;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The background half of file leases (HDFS {@code LeaseManager.Monitor}): recovers the files of
 * holders silent past the hard limit, finishes recoveries the data tier is still working on,
 * rolls back or forward concats that died with a previous server process, and drops leases whose
 * file was deleted or replaced under its writer. Each tick visits only the leases of silent holders
 * and the server's own (the lease table indexes them); the sweep for orphaned leases, a safety net
 * for files removed with a whole subtree, looks at every lease once per soft limit.
 */
public final class LeaseMonitor implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LeaseMonitor.class);

  private final Namespace ns;
  private final LeaseTable leases;
  private final LeaseRecovery recovery;
  private final DataTier data;
  private final long tickMs;
  private final long sweepEveryTicks;
  private long ticks;
  private final Periodic loop;
  private volatile java.util.function.BooleanSupplier paused = () -> false;

  public LeaseMonitor(Namespace ns, LeaseTable leases, LeaseRecovery recovery, DataTier data) {
    this.ns = ns;
    this.leases = leases;
    this.recovery = recovery;
    this.data = data;
    this.tickMs = Math.max(50, Math.min(2000, leases.softLimitMs() / 4));
    this.sweepEveryTicks = Math.max(1, leases.softLimitMs() / tickMs);
    this.loop = new Periodic("indexfs-lease-monitor-" + ns.slot(), tickMs, true, this::runOnce);
  }

  /** While {@code condition} holds (safe mode), start no background change. */
  public void pauseWhile(java.util.function.BooleanSupplier condition) {
    this.paused = condition;
  }

  public void start() {
    loop.start();
  }

  /** One tick; every {@link #sweepEveryTicks}-th one looks at every lease. Visible for tests. */
  public void runOnce() {
    if (paused.getAsBoolean()) {
      return; // safe mode: no recovery, as HDFS's lease monitor waits out safe mode
    }
    boolean sweep = ticks++ % sweepEveryTicks == 0;
    java.util.Set<FileLease> due = new java.util.LinkedHashSet<>(leases.internal());
    due.addAll(sweep ? leases.all() : leases.ofHoldersPastHardLimit());
    for (FileLease lease : due) {
      try {
        check(lease);
      } catch (IOException | RuntimeException e) {
        LOG.warn("Lease of inode {} (holder {}): {}", lease.inodeId(), lease.holder(), e.toString());
      }
    }
    leases.forgetSilentHolders();
  }

  private void check(FileLease lease) throws IOException {
    if (lease.recovering()) {
      recovery.advance(lease.inodeId());
      return;
    }
    boolean abandonedConcat = leases.abandonedConcat(lease);
    boolean expired = leases.hardLimitExpired(lease.holder());
    if (!abandonedConcat && !expired) {
      dropIfOrphaned(lease);
      return;
    }
    if (abandonedConcat && concatConsumedObject(lease)) {
      return;
    }
    LOG.info("Recovering inode {}: {}", lease.inodeId(),
        abandonedConcat ? "its concat died with a previous server" : "holder " + lease.holder() + " passed the hard limit");
    Boolean recovering = ns.mutate(batch -> {
      FileLease current = leases.get(lease.inodeId());
      Inode file = ns.lookup(lease.parentId(), lease.name());
      if (!lease.equals(current)) {
        return false;
      }
      if (file == null || file.inodeId != lease.inodeId() || !file.isUnderConstruction()) {
        leases.release(batch, lease.inodeId());
        return false;
      }
      return recovery.start(batch, file, current).recovering();
    });
    if (recovering) {
      recovery.advance(lease.inodeId());
    }
  }

  /**
   * A concat source whose object is gone was consumed by the data tier's concat before the
   * server died: the concat happened, so the source goes (HDFS concat is all-or-nothing).
   */
  private boolean concatConsumedObject(FileLease lease) throws IOException {
    Inode file = ns.read(none -> ns.lookup(lease.parentId(), lease.name()));
    if (file == null || file.inodeId != lease.inodeId() || file.dataObject == null
        || data.length(file.dataObject) >= 0) {
      return false;
    }
    return ns.mutate(batch -> {
      Inode current = ns.lookup(lease.parentId(), lease.name());
      if (!lease.equals(leases.get(lease.inodeId())) || current == null || current.inodeId != lease.inodeId()) {
        return false;
      }
      LOG.info("Inode {} was a source of a concat that completed on the data tier; removing it", lease.inodeId());
      ns.deleteEntry(batch, lease.parentId(), lease.name());
      ns.attrs().deleteFor(batch, current);
      leases.release(batch, lease.inodeId());
      return true;
    });
  }

  /** The file was deleted, or replaced by a new one, while being written: its lease goes. */
  private void dropIfOrphaned(FileLease lease) throws IOException {
    Inode file = ns.read(none -> ns.lookup(lease.parentId(), lease.name()));
    if (file != null && file.inodeId == lease.inodeId()) {
      return;
    }
    ns.mutate(batch -> {
      Inode current = ns.lookup(lease.parentId(), lease.name());
      if (lease.equals(leases.get(lease.inodeId())) && (current == null || current.inodeId != lease.inodeId())) {
        leases.release(batch, lease.inodeId());
      }
      return null;
    });
  }

  @Override
  public void close() {
    loop.close();
  }
}
