package org.indexfs.server.call;

import static org.indexfs.server.call.When.NO;
import static org.indexfs.server.call.When.YES;

import org.indexfs.proto.AclEditRequest;
import org.indexfs.proto.PublishRequest;
import org.indexfs.proto.QuotaRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Request.OpCase;
import org.indexfs.proto.StoragePolicyRequest;

/**
 * Every operation of the wire protocol with all its traits, one row each: the only place that says
 * which calls are mutations, at-most-once, gated by snapshots, refused on a full disk or in safe
 * mode, retried for quota, reserved to servers, or allowed on the I/O thread. The guards
 * ({@code SafeModeGuard}, {@code GatedOp}, {@code SpaceGuard}, {@code RetriedOp}, {@code QuotaRetry})
 * and the {@code Dispatcher} read it. HDFS is the reference: "safe mode" follows the callers of
 * {@code FSNamesystem.checkNameNodeSafeMode}, "at most once" {@code ClientProtocol}'s
 * {@code @AtMostOnce}. A full disk refuses what HDFS's low-resource safe mode would, except what
 * frees space or lets a writer finish. A new operation adds its row here; {@code OperationTableTest}
 * fails while one has none.
 */
public final class OperationTable {
  private static final Traits[] ROWS = new Traits[OpCase.values().length];

  // Forms of one request that differ in their traits.
  private static final When STORAGE_POLICY_CHANGE =
      r -> r.getStoragePolicy().getAction() != StoragePolicyRequest.Action.GET;
  private static final When CLIENT_PUBLISH = r -> r.getPublish().getPhase() == PublishRequest.Phase.CLIENT;
  private static final When PEER_PUBLISH = r -> r.getPublish().getPhase() != PublishRequest.Phase.CLIENT;
  private static final When ACL_ADDS = r -> r.getAclEdit().getAction() == AclEditRequest.Action.MODIFY
      || r.getAclEdit().getAction() == AclEditRequest.Action.SET;
  private static final When PEER_LOCALIZE = r -> switch (r.getLocalize().getAction()) {
    case MIRROR, UNMIRROR, CONTEND -> true;
    default -> false;
  };

  static {
    // The namespace: HDFS's ClientProtocol calls.
    row(Traits.of(OpCase.MKDIRS) // HDFS mkdirs is @Idempotent; at most once here so a retry is not charged twice
        .mutation(YES).safeMode(YES).gated(YES).grows(YES).atMostOnce(YES).quotaRetried(YES).serverOnly(NO)
        .ioThread(IoThread.ONE_SLOT));
    row(Traits.of(OpCase.CREATE) // HDFS create: @AtMostOnce, refused in safe mode
        .mutation(YES).safeMode(YES).gated(YES).grows(YES).atMostOnce(YES).quotaRetried(YES).serverOnly(NO)
        .ioThread(IoThread.YES));
    row(Traits.of(OpCase.GET_FILE_STATUS)
        .mutation(NO).safeMode(NO).gated(NO).grows(NO).atMostOnce(NO).quotaRetried(NO).serverOnly(NO)
        .ioThread(IoThread.YES));
    row(Traits.of(OpCase.LIST_STATUS)
        .mutation(NO).safeMode(NO).gated(NO).grows(NO).atMostOnce(NO).quotaRetried(NO).serverOnly(NO)
        .ioThread(IoThread.YES));
    row(Traits.of(OpCase.DELETE) // frees space: accepted on a full disk; a directory's leaves the I/O thread itself
        .mutation(YES).safeMode(YES).gated(YES).grows(NO).atMostOnce(YES).quotaRetried(NO).serverOnly(NO)
        .ioThread(IoThread.YES));
    row(Traits.of(OpCase.RENAME) // across slots a two-phase commit: never on the I/O thread then
        .mutation(YES).safeMode(YES).gated(YES).grows(YES).atMostOnce(YES).quotaRetried(YES).serverOnly(NO)
        .ioThread(IoThread.ONE_SLOT));
    row(Traits.of(OpCase.SET_PERMISSION) // waits for a directory's entry leases: not on the I/O thread
        .mutation(YES).safeMode(YES).gated(YES).grows(YES).atMostOnce(NO).quotaRetried(NO).serverOnly(NO)
        .ioThread(IoThread.NO));
    row(Traits.of(OpCase.SET_OWNER)
        .mutation(YES).safeMode(YES).gated(YES).grows(YES).atMostOnce(NO).quotaRetried(NO).serverOnly(NO)
        .ioThread(IoThread.NO));
    row(Traits.of(OpCase.SET_TIMES)
        .mutation(YES).safeMode(YES).gated(YES).grows(YES).atMostOnce(NO).quotaRetried(NO).serverOnly(NO)
        .ioThread(IoThread.YES));
    row(Traits.of(OpCase.SET_REPLICATION) // may count more space against a quota
        .mutation(YES).safeMode(YES).gated(YES).grows(YES).atMostOnce(NO).quotaRetried(YES).serverOnly(NO)
        .ioThread(IoThread.NO));
    row(Traits.of(OpCase.CONTENT_SUMMARY) // walks a subtree, across slots
        .mutation(NO).safeMode(NO).gated(NO).grows(NO).atMostOnce(NO).quotaRetried(NO).serverOnly(NO)
        .ioThread(IoThread.NO));
    row(Traits.of(OpCase.OPEN) // may set atime; HDFS's getBlockLocations is never refused in safe mode
        .mutation(YES).safeMode(NO).gated(NO).grows(NO).atMostOnce(NO).quotaRetried(NO).serverOnly(NO)
        .ioThread(IoThread.YES));
    row(Traits.of(OpCase.COMPLETE) // lets a writer finish: accepted on a full disk
        .mutation(YES).safeMode(YES).gated(YES).grows(NO).atMostOnce(YES).quotaRetried(YES).serverOnly(NO)
        .ioThread(IoThread.YES));
    row(Traits.of(OpCase.SERVER_INFO)
        .mutation(NO).safeMode(NO).gated(NO).grows(NO).atMostOnce(NO).quotaRetried(NO).serverOnly(NO)
        .ioThread(IoThread.NO));
    row(Traits.of(OpCase.APPEND) // HDFS append: @AtMostOnce, refused in safe mode
        .mutation(YES).safeMode(YES).gated(YES).grows(YES).atMostOnce(YES).quotaRetried(YES).serverOnly(NO)
        .ioThread(IoThread.NO));
    // Gated (was not): it changes a length and inline bytes a snapshot copies, as COMPLETE does.
    row(Traits.of(OpCase.FLUSH)
        .mutation(YES).safeMode(YES).gated(YES).grows(NO).atMostOnce(NO).quotaRetried(YES).serverOnly(NO)
        .ioThread((r, server) -> (!r.getFlush().getSync() || server.syncsCommits())
            && r.getFlush().getDataObject().isEmpty())); // hsync with wal.sync=false fsyncs; a spill calls the data tier
    row(Traits.of(OpCase.RENEW_LEASE) // HDFS renewLease: refused in safe mode; changes no entry
        .mutation(YES).safeMode(YES).gated(NO).grows(NO).atMostOnce(NO).quotaRetried(NO).serverOnly(NO)
        .ioThread(IoThread.YES));
    // Gated (was not): recovery may close the file, changing what a snapshot copies.
    row(Traits.of(OpCase.RECOVER_LEASE)
        .mutation(YES).safeMode(YES).gated(YES).grows(NO).atMostOnce(NO).quotaRetried(NO).serverOnly(NO)
        .ioThread(IoThread.NO));
    row(Traits.of(OpCase.TRUNCATE) // HDFS truncate is @Idempotent; at most once here, as its answer may say "settling"
        .mutation(YES).safeMode(YES).gated(YES).grows(YES).atMostOnce(YES).quotaRetried(NO).serverOnly(NO)
        .ioThread(IoThread.NO));
    // Not quota-retried (was): concat only credits the directory it stays in, it never asks for a share.
    row(Traits.of(OpCase.CONCAT)
        .mutation(YES).safeMode(YES).gated(YES).grows(YES).atMostOnce(YES).quotaRetried(NO).serverOnly(NO)
        .ioThread(IoThread.NO));
    row(Traits.of(OpCase.ACCESS)
        .mutation(NO).safeMode(NO).gated(NO).grows(NO).atMostOnce(NO).quotaRetried(NO).serverOnly(NO)
        .ioThread(IoThread.YES));
    // Delegation tokens live in ZooKeeper, not in the namespace safe mode freezes (HDFS, which edit-logs
    // them, refuses them in safe mode).
    for (OpCase token : new OpCase[] {OpCase.GET_DELEGATION_TOKEN, OpCase.RENEW_DELEGATION_TOKEN,
        OpCase.CANCEL_DELEGATION_TOKEN}) {
      row(Traits.of(token)
          .mutation(YES).safeMode(NO).gated(NO).grows(NO).atMostOnce(NO).quotaRetried(NO).serverOnly(NO)
          .ioThread(IoThread.NO));
    }
    // Bulk insertion: a subtree lease changes no entry; its publish does, as creates and mkdirs do.
    row(Traits.of(OpCase.LOCALIZE)
        .mutation(YES).safeMode(NO).gated(NO).grows(NO).atMostOnce(NO).quotaRetried(NO).serverOnly(PEER_LOCALIZE)
        .ioThread(IoThread.NO));
    // A client's publish is now refused in safe mode and on a full disk (was not); its phases between
    // servers finish a publish already admitted, and are idempotent by transaction id.
    row(Traits.of(OpCase.PUBLISH)
        .mutation(YES).safeMode(CLIENT_PUBLISH).gated(CLIENT_PUBLISH).grows(CLIENT_PUBLISH)
        .atMostOnce(CLIENT_PUBLISH).quotaRetried(NO).serverOnly(PEER_PUBLISH)
        .ioThread(IoThread.NO));
    // Extended attributes, ACLs, quotas, policies (issue 17, 18). HDFS marks setXAttr and removeXAttr
    // @AtMostOnce; here a retried one runs again (not yet in the retry cache's applied answers).
    row(Traits.of(OpCase.SET_XATTR) // grows (was not): up to indexfs.xattr.max-size bytes each
        .mutation(YES).safeMode(YES).gated(YES).grows(YES).atMostOnce(NO).quotaRetried(NO).serverOnly(NO)
        .ioThread(IoThread.YES));
    row(Traits.of(OpCase.GET_XATTRS)
        .mutation(NO).safeMode(NO).gated(NO).grows(NO).atMostOnce(NO).quotaRetried(NO).serverOnly(NO)
        .ioThread(IoThread.YES));
    row(Traits.of(OpCase.REMOVE_XATTR) // frees space: accepted on a full disk
        .mutation(YES).safeMode(YES).gated(YES).grows(NO).atMostOnce(NO).quotaRetried(NO).serverOnly(NO)
        .ioThread(IoThread.YES));
    row(Traits.of(OpCase.ACL_EDIT) // modify and set grow (were accepted on a full disk); removals free space
        .mutation(YES).safeMode(YES).gated(YES).grows(ACL_ADDS).atMostOnce(NO).quotaRetried(NO).serverOnly(NO)
        .ioThread(IoThread.NO));
    row(Traits.of(OpCase.GET_ACL_STATUS)
        .mutation(NO).safeMode(NO).gated(NO).grows(NO).atMostOnce(NO).quotaRetried(NO).serverOnly(NO)
        .ioThread(IoThread.YES));
    // Not gated: a snapshot copies entries, xattrs and ACLs, not quotas. Grows (was not): it writes records.
    row(Traits.of(OpCase.SET_QUOTA)
        .mutation(YES).safeMode(YES).gated(NO).grows(YES).atMostOnce(NO).quotaRetried(NO).serverOnly(NO)
        .ioThread(IoThread.NO));
    row(Traits.of(OpCase.SET_POLICY) // grows (was not): a policy record per directory
        .mutation(YES).safeMode(YES).gated(YES).grows(YES).atMostOnce(NO).quotaRetried(NO).serverOnly(NO)
        .ioThread(IoThread.NO));
    row(Traits.of(OpCase.GET_POLICY)
        .mutation(NO).safeMode(NO).gated(NO).grows(NO).atMostOnce(NO).quotaRetried(NO).serverOnly(NO)
        .ioThread(IoThread.NO));
    // GET is a read: no longer gated (a snapshot refused it). SET and UNSET rewrite the entry: they grow
    // as SET_PERMISSION does (were accepted on a full disk).
    row(Traits.of(OpCase.STORAGE_POLICY)
        .mutation(STORAGE_POLICY_CHANGE).safeMode(STORAGE_POLICY_CHANGE).gated(STORAGE_POLICY_CHANGE)
        .grows(STORAGE_POLICY_CHANGE).atMostOnce(NO).quotaRetried(NO).serverOnly(NO)
        .ioThread((r, server) -> !STORAGE_POLICY_CHANGE.test(r)));
    // Snapshots: a client's allow, disallow, create, rename and delete are now refused in safe mode, as
    // FSNamesystem refuses them (were not); all but delete grow. Not gated: a snapshot closes the gates
    // itself. HDFS marks create/rename/deleteSnapshot @AtMostOnce: not yet in the retry cache here.
    row(Traits.of(OpCase.SNAPSHOT)
        .mutation(SnapshotForms.CHANGES).safeMode(SnapshotForms.CLIENT_CHANGE).gated(NO)
        .grows(SnapshotForms.CLIENT_GROWTH).atMostOnce(NO).quotaRetried(NO).serverOnly(SnapshotForms.BETWEEN_SERVERS)
        .ioThread(IoThread.NO));
    // Between servers (DESIGN §7): they finish calls admitted on another slot, so no guard refuses them.
    row(Traits.of(OpCase.PARTITION)
        .mutation(YES).safeMode(NO).gated(NO).grows(NO).atMostOnce(NO).quotaRetried(NO).serverOnly(YES)
        .ioThread(IoThread.NO));
    row(Traits.of(OpCase.RENAME_IN) // idempotent by transaction id; may count against the destination's quota
        .mutation(YES).safeMode(NO).gated(NO).grows(NO).atMostOnce(NO).quotaRetried(YES).serverOnly(YES)
        .ioThread(IoThread.NO));
    row(Traits.of(OpCase.REFERENCED)
        .mutation(NO).safeMode(NO).gated(NO).grows(NO).atMostOnce(NO).quotaRetried(NO).serverOnly(YES)
        .ioThread(IoThread.NO));
    row(Traits.of(OpCase.QUOTA) // a recall only counts under a lock; the rest may wait for a disk or a peer
        .mutation(YES).safeMode(NO).gated(NO).grows(NO).atMostOnce(NO).quotaRetried(NO).serverOnly(YES)
        .ioThread((r, server) -> r.getQuota().getAction() == QuotaRequest.Action.RECALL));
    // Operators (superuser, checked by each): they must work in safe mode, which they turn on and off.
    row(Traits.of(OpCase.SLOT_REPORT)
        .mutation(NO).safeMode(NO).gated(NO).grows(NO).atMostOnce(NO).quotaRetried(NO).serverOnly(NO)
        .ioThread(IoThread.NO));
    row(Traits.of(OpCase.SAFE_MODE)
        .mutation(YES).safeMode(NO).gated(NO).grows(NO).atMostOnce(NO).quotaRetried(NO).serverOnly(NO)
        .ioThread(IoThread.NO));
    row(Traits.of(OpCase.BALANCE) // moves partitions; splits already pause while in safe mode
        .mutation(YES).safeMode(NO).gated(NO).grows(NO).atMostOnce(NO).quotaRetried(NO).serverOnly(NO)
        .ioThread(IoThread.NO));
    row(Traits.of(OpCase.FSCK) // meant to run in safe mode
        .mutation(NO).safeMode(NO).gated(NO).grows(NO).atMostOnce(NO).quotaRetried(NO).serverOnly(NO)
        .ioThread(IoThread.NO));
    row(Traits.of(OpCase.HANDOVER)
        .mutation(YES).safeMode(NO).gated(NO).grows(NO).atMostOnce(NO).quotaRetried(NO).serverOnly(NO)
        .ioThread(IoThread.NO));
    row(Traits.of(OpCase.SASL) // answered by the transport before any dispatch
        .mutation(NO).safeMode(NO).gated(NO).grows(NO).atMostOnce(NO).quotaRetried(NO).serverOnly(NO)
        .ioThread(IoThread.NO));
  }

  private OperationTable() {}

  private static void row(Traits t) {
    if (ROWS[t.op().ordinal()] != null) {
      throw new IllegalStateException(t.op() + " has two rows");
    }
    ROWS[t.op().ordinal()] = t;
  }

  /** The traits of {@code op}; throws when it has no row (a new operation must add one). */
  public static Traits traits(OpCase op) {
    Traits t = ROWS[op.ordinal()];
    if (t == null) {
      throw new IllegalStateException("Operation " + op + " has no row in OperationTable");
    }
    return t;
  }

  /** The traits of {@code request}'s operation. */
  public static Traits traits(Request request) {
    return traits(request.getOpCase());
  }
}
