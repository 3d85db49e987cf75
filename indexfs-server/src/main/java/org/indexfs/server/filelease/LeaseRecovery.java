package org.indexfs.server.filelease;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Code;
import org.indexfs.server.data.DataTier;
import org.indexfs.server.data.Reclaimer;
import org.indexfs.server.ns.Namespace;
import org.rocksdb.WriteBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closing a file whose writer is gone, "with its data up to the last hflush" (HDFS
 * {@code FSNamesystem.internalReleaseLease}). An inline file closes at once: its entry already holds
 * every byte the writer flushed. An object file first needs the data tier to take the object away
 * from the dead writer ({@code recoverLease} on the object, which settles its last block), so its
 * lease passes to {@link LeaseTable#RECOVERY_HOLDER} and {@link #advance} finishes it, outside the
 * namespace lock, from a handler or the {@link LeaseMonitor}.
 */
public final class LeaseRecovery {
  private static final Logger LOG = LoggerFactory.getLogger(LeaseRecovery.class);

  private final Namespace ns;
  private final LeaseTable leases;
  private final DataTier data;
  private final Reclaimer reclaimer;

  public LeaseRecovery(Namespace ns, LeaseTable leases, DataTier data, Reclaimer reclaimer) {
    this.ns = ns;
    this.leases = leases;
    this.data = data;
    this.reclaimer = reclaimer;
  }

  /** A file a new writer wants: closed now (usable at once), or handed to recovery. */
  public record Preempted(Inode file, boolean recovering) {}

  /**
   * HDFS {@code recoverLeaseInternal} without force, inside a mutation: the caller wants to write
   * (append, truncate, create) a file that may be open. A live holder, or the caller itself, keeps
   * it ({@code ALREADY_BEING_CREATED}); a holder past the soft limit loses it.
   */
  public Preempted preempt(WriteBatch batch, long parentId, String name, Inode file, String caller, String path,
      String op) throws IOException {
    if (!file.isUnderConstruction()) {
      return new Preempted(file, false);
    }
    FileLease lease = leases.get(file.inodeId);
    if (lease == null) {
      // Open without a lease record: nobody can ever close it, so recover it now.
      lease = new FileLease(file.inodeId, LeaseTable.RECOVERY_HOLDER, parentId, name, "");
    } else if (lease.recovering() || LeaseTable.CONCAT_HOLDER.equals(lease.holder())) {
      throw new IndexFsException(Code.RECOVERY_IN_PROGRESS, "Failed to " + op + " " + path + " for " + caller
          + " because lease recovery is in progress. Try again later.");
    } else if (lease.holder().equals(caller)) {
      throw new IndexFsException(Code.ALREADY_BEING_CREATED, "Failed to " + op + " " + path + " for " + caller
          + " because " + caller + " is already the current lease holder.");
    } else if (!leases.softLimitExpired(lease.holder())) {
      throw new IndexFsException(Code.ALREADY_BEING_CREATED, "Failed to " + op + " " + path + " for " + caller
          + " because this file lease is currently owned by " + lease.holder());
    }
    LOG.info("{} of {}: the lease of {} expired; recovering the file", op, path, lease.holder());
    return start(batch, file, lease);
  }

  /**
   * Starts closing {@code file} (leased by {@code lease}) in the caller's batch: an inline file is
   * closed in this batch; an object file passes to recovery and {@link #advance} must follow.
   */
  public Preempted start(WriteBatch batch, Inode file, FileLease lease) throws IOException {
    if (file.dataObject == null) {
      Inode closed = file.copy();
      closed.flags &= ~Inode.FLAG_UNDER_CONSTRUCTION;
      closed.mtime = System.currentTimeMillis();
      ns.putEntry(batch, lease.parentId(), lease.name(), closed);
      leases.release(batch, file.inodeId);
      if (!lease.spillObject().isEmpty()) {
        // The writer may have created its object without recording it; nobody can record it now.
        reclaimer.reclaimObject(batch, lease.spillObject());
      }
      return new Preempted(closed, false);
    }
    leases.put(batch, lease.withHolder(LeaseTable.RECOVERY_HOLDER));
    return new Preempted(file, true);
  }

  /**
   * Drives the recovery of one object file, outside any lock: asks the data tier to close the
   * object, then records the object's final length and closes the entry. True once the file is
   * closed (or gone); false while the data tier is still recovering the last block.
   */
  public boolean advance(long inodeId) throws IOException {
    FileLease lease = leases.get(inodeId);
    if (lease == null || !lease.recovering()) {
      return true;
    }
    Inode file = ns.read(none -> ns.lookup(lease.parentId(), lease.name()));
    long length = -1;
    if (file != null && file.inodeId == inodeId && file.dataObject != null) {
      if (!data.recoverLease(file.dataObject)) {
        return false;
      }
      length = data.length(file.dataObject);
      if (length < 0) {
        LOG.warn("Data object {} of inode {} is missing; closing the file at its recorded length {}",
            file.dataObject, inodeId, file.length);
      }
    }
    long finalLength = length;
    ns.mutate(batch -> {
      FileLease current = leases.get(inodeId);
      if (current == null || !current.recovering()) {
        return null;
      }
      leases.release(batch, inodeId);
      Inode entry = ns.lookup(current.parentId(), current.name());
      if (entry == null || entry.inodeId != inodeId) {
        return null;
      }
      Inode closed = entry.copy();
      closed.flags &= ~Inode.FLAG_UNDER_CONSTRUCTION;
      closed.mtime = System.currentTimeMillis();
      if (finalLength >= 0) {
        closed.length = finalLength;
      }
      ns.putEntry(batch, current.parentId(), current.name(), closed);
      return null;
    });
    LOG.info("Recovered inode {} at length {}", inodeId, finalLength);
    return true;
  }
}
