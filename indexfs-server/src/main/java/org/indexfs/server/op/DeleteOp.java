package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.ReservedNames;
import org.indexfs.common.Permission;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.BoolResult;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.proto.DeleteRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.Blocking;
import org.indexfs.server.lease.EntryLeases;
import org.indexfs.server.ns.ResolvedPath;
import org.indexfs.server.quota.QuotaRoot;
import org.indexfs.server.quota.Usage;
import org.rocksdb.WriteBatch;

/**
 * {@code delete}: a file, an empty directory, or (recursive) a whole subtree. The top entry is
 * unlinked in one batch, so the subtree disappears at once; its entries and data objects are
 * reclaimed in the background from a durable record (DESIGN §7). The root is never deleted.
 */
public final class DeleteOp implements Operation {
  private final OpContext ctx;

  public DeleteOp(OpContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    ReservedNames.refuseReservedPath(ctx.resolver().parse(request.getDelete().getPath()), request.getDelete().getPath());
    Boolean deleted = deleteFile(request);
    if (deleted != null) {
      return Response.newBuilder().setBool(BoolResult.newBuilder().setValue(deleted));
    }
    // A directory: it may wait for leases and call peers, so not on an I/O thread.
    Blocking.check("delete of a directory");
    // A directory's entry changes: clients caching it must have let go first (DESIGN §5).
    try (EntryLeases.Revocation revoked = DirectoryLeases.revoke(ctx, request.getResolution(), request.getDelete().getPath())) {
      return applyRevoked(request);
    }
  }

  /**
   * The common case in one step, locking only the file's directory: whether the path named a
   * file (or nothing) and was deleted; null when it names a directory.
   */
  private Boolean deleteFile(Request request) throws IOException {
    DeleteRequest req = request.getDelete();
    Caller caller = request.getCaller();
    boolean[] reclaim = {false};
    DirectoryTouches touches = new DirectoryTouches();
    Boolean deleted = ctx.ns().mutateLocked(m -> {
      ResolvedPath p = ctx.resolver().resolveForUpdate(m, request.getResolution(), req.getPath());
      ctx.access().checkTraverse(caller, p);
      Inode target = p.last();
      if (target == null) {
        return false;
      }
      if (target.isDirectory()) {
        return null;
      }
      ctx.access().checkParent(caller, p, Permission.WRITE);
      ctx.access().checkStickyBit(caller, p);
      ctx.quotas().charge(m, QuotaRoot.above(p, p.depth()), -1, -Usage.space(target));
      unlink(m.batch(), p, target, touches);
      reclaim[0] = target.dataObject != null;
      return true;
    });
    touches.send(ctx);
    if (reclaim[0]) {
      ctx.reclaimer().wake();
    }
    return deleted;
  }

  private Response.Builder applyRevoked(Request request) throws IOException {
    DeleteRequest req = request.getDelete();
    Caller caller = request.getCaller();
    // What lives on other slots is settled before the write lock: never call a peer under it.
    ResolvedPath seenPath = ctx.ns().read(none -> ctx.resolver().resolve(request.getResolution(), req.getPath()));
    Inode seen = seenPath.last();
    if (seen != null && seen.isDirectory() && seen.has(Inode.FLAG_SNAPSHOTTABLE)
        && org.indexfs.server.snapshot.SnapshotOp.count(ctx, seen) > 0) {
      throw new IndexFsException(Code.SNAPSHOT, "The directory " + req.getPath() + " cannot be deleted since "
          + req.getPath() + " is snapshottable and already has snapshots");
    }
    if (seen != null && seen.isDirectory() && req.getRecursive()) {
      org.indexfs.server.snapshot.SnapshotOp.refuseDeleteAbove(ctx, req.getPath());
    }
    long[] counted = subtreeUsage(seenPath, req);
    boolean remoteHome = seen != null && seen.isDirectory() && !ctx.partitions().holdsWhole(seen);
    if (seen != null && seen.isDirectory() && req.getRecursive() && ctx.access().requiresSubtreeChecks(caller)) {
      if (remoteHome) {
        Subtrees.checkAtHome(ctx, caller, req.getPath(), seen);
      } else {
        Subtrees.checkRemoteParts(ctx, caller, req.getPath(), seen.inodeId);
      }
    }
    if (remoteHome && !req.getRecursive()) {
      return deleteSealed(request, req, seen);
    }
    long[] synced = {-1};
    DirectoryTouches touches = new DirectoryTouches();
    boolean deleted = ctx.ns().mutate(batch -> {
      ResolvedPath p = ctx.resolver().resolve(request.getResolution(), req.getPath());
      ctx.access().checkTraverse(caller, p);
      Inode target = p.last();
      if (target == null) {
        return false;
      }
      boolean remote = target.isDirectory() && !ctx.partitions().holdsWhole(target);
      // A directory homed elsewhere is emptied by its home after the unlink (recursive only here).
      boolean empty = !target.isDirectory() || (!remote && SubtreeWalk.isEmpty(ctx, target.inodeId));
      if (target.isDirectory() && !empty && !req.getRecursive()) {
        throw new IndexFsException(Code.DIRECTORY_NOT_EMPTY, "`" + p.path() + " is non empty': Directory is not empty");
      }
      if (p.isRoot()) {
        // HDFS refuses to remove the root (FSDirDeleteOp.deleteAllowed) and answers false.
        return false;
      }
      ctx.access().checkParent(caller, p, Permission.WRITE);
      ctx.access().checkStickyBit(caller, p);
      // ALL on every non-empty directory of the subtree (FSDirDeleteOp: subAccess=ALL,
      // ignoreEmptyDir=true): an empty directory holds nothing its mode could protect. The parts
      // on other slots were checked above.
      if (!empty && !remote && ctx.access().requiresSubtreeChecks(caller)) {
        ctx.access().checkSubtreeDirectory(caller, p.path(), target, Permission.ALL);
        SubtreeWalk.walk(ctx, SubtreeWalk.step(target.inodeId, p.path(), ctx.ns().slot(), true), (path, inode) -> {
          if (inode.isDirectory() && inode.zerothSlot == ctx.ns().slot() && !SubtreeWalk.isEmpty(ctx, inode.inodeId)) {
            ctx.access().checkSubtreeDirectory(caller, path, inode, Permission.ALL);
          }
        }, Long.MAX_VALUE);
      }
      long[] usage = counted != null && counted[2] == target.inodeId ? counted : new long[] {1, Usage.space(target)};
      ctx.quotas().credit(batch, QuotaRoot.above(p, p.depth()), -usage[0], -usage[1]);
      unlink(batch, p, target, touches);
      if (remote) {
        synced[0] = HomeChanges.record(ctx, batch, p, p.depth(), target);
      } else if (!empty) {
        ctx.reclaimer().reclaimSubtree(batch, target.inodeId);
      }
      return true;
    });
    HomeChanges.drive(ctx, synced[0]);
    touches.send(ctx);
    if (deleted) {
      ctx.reclaimer().wake();
    }
    return Response.newBuilder().setBool(BoolResult.newBuilder().setValue(deleted));
  }

  /**
   * What a directory about to be deleted counts against the quotas above it — itself and its whole
   * subtree, on every slot — when it has any above it; null otherwise. Counted before the delete
   * (HDFS counts under its lock; a change racing with the delete inside the subtree may stay
   * counted).
   */
  private long[] subtreeUsage(ResolvedPath p, DeleteRequest req) throws IOException {
    Inode dir = p.last();
    if (dir == null || !dir.isDirectory() || QuotaRoot.above(p, p.depth()).isEmpty()) {
      return null;
    }
    return Subtrees.usageOf(ctx, req.getPath(), dir);
  }

  private void unlink(WriteBatch batch, ResolvedPath p, Inode target, DirectoryTouches touches) throws IOException {
    ctx.ns().deleteEntry(batch, p.parent().inodeId, p.lastName());
    ctx.ns().attrs().deleteFor(batch, target);
    if (target.isDirectory() && ctx.partitions().holdsWhole(target)) {
      ctx.ns().deletePartition(batch, target.inodeId);
      org.indexfs.server.quota.QuotaHome.drop(batch, ctx.ns().store(), target.inodeId);
    }
    Entries.touchDirectory(ctx, batch, p, p.depth() - 1, System.currentTimeMillis(), touches);
    if (target.dataObject != null) {
      ctx.reclaimer().reclaimObject(batch, target.dataObject);
    }
    if (target.isUnderConstruction()) {
      // Its writer's next flush or close fails, as in HDFS; its unrecorded spill object is an orphan.
      ctx.leases().release(batch, target.inodeId);
    }
  }

  /**
   * rmdir of a directory homed on another slot: its home seals it (refusing new entries) only if
   * it is empty, then the entry goes. The intent is written first, so whatever happens the home
   * ends up agreeing with the entry: unsealed if it survives, dropped if it is gone.
   */
  private Response.Builder deleteSealed(Request request, DeleteRequest req, Inode seen) throws IOException {
    Caller caller = request.getCaller();
    ctx.ns().prepare(batch -> {
      ResolvedPath p = ctx.resolver().resolve(request.getResolution(), req.getPath());
      if (p.last() == null || p.last().inodeId != seen.inodeId) {
        throw new IndexFsException(Code.STALE_RESOLUTION, req.getPath() + " changed while being deleted");
      }
      ctx.access().checkTraverse(caller, p);
      ctx.access().checkParent(caller, p, Permission.WRITE);
      ctx.access().checkStickyBit(caller, p);
      HomeChanges.record(ctx, batch, p, p.depth(), p.last());
      return null;
    });
    boolean deleted = false;
    DirectoryTouches touches = new DirectoryTouches();
    try {
      ctx.homes().seal(seen.zerothSlot, seen.inodeId, req.getPath());
      deleted = ctx.ns().mutate(batch -> {
        ResolvedPath p = ctx.resolver().resolve(request.getResolution(), req.getPath());
        if (p.last() == null || p.last().inodeId != seen.inodeId || p.isRoot()) {
          return false; // HDFS never removes the root (FSDirDeleteOp.deleteAllowed)
        }
        ctx.quotas().credit(batch, QuotaRoot.above(p, p.depth()), -1, 0);
        unlink(batch, p, p.last(), touches);
        return true;
      });
    } finally {
      HomeChanges.drive(ctx, seen.inodeId);
    }
    touches.send(ctx);
    return Response.newBuilder().setBool(BoolResult.newBuilder().setValue(deleted));
  }
}
