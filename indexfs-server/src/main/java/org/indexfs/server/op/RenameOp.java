package org.indexfs.server.op;

import java.io.IOException;
import java.util.List;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.ReservedNames;
import org.indexfs.common.PathNames;
import org.indexfs.common.Permission;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.BoolResult;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.proto.RenameRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.filelease.FileLease;
import org.indexfs.server.lease.EntryLeases;
import org.indexfs.server.ns.Destination;
import org.indexfs.server.ns.Mutation;
import org.indexfs.server.ns.ResolvedPath;
import org.indexfs.server.quota.QuotaRoot;
import org.indexfs.server.quota.Usage;
import org.rocksdb.WriteBatch;

/**
 * {@code rename} with HDFS's two rule sets (FSDirRenameOp):
 * <ul>
 *   <li>LEGACY ({@code FileSystem.rename}): an existing directory destination means "move into
 *       it"; a missing source, an existing destination, a missing destination parent or a move
 *       into the source's own subtree answer {@code false};</li>
 *   <li>EXACT ({@code FileContext.rename}, {@code Rename.OVERWRITE}): the destination is exact and
 *       every refusal is an exception.</li>
 * </ul>
 * Entries are keyed by their parent's inode id, so moving a directory rewrites one entry, never
 * its subtree. Both keys change in one RocksDB batch: the rename is atomic.
 */
public final class RenameOp implements Operation {
  private final OpContext ctx;
  private final CrossSlotRename crossSlot;

  public RenameOp(OpContext ctx, CrossSlotRename crossSlot) {
    this.ctx = ctx;
    this.crossSlot = crossSlot;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    RenameRequest names = request.getRename();
    org.indexfs.common.PathNames.checkPathLength("rename", names.getDst());
    java.util.List<String> dstNames = ctx.resolver().parse(names.getDst());
    ReservedNames.refuseReservedRename(ctx.resolver().parse(names.getSrc()), dstNames);
    SnapshotPaths.checkCreatable(ctx, request.getDstResolution(), dstNames);
    // A directory's entry changes: clients caching it must have let go first (DESIGN §5).
    try (EntryLeases.Revocation revoked = DirectoryLeases.revoke(ctx, request.getResolution(), request.getRename().getSrc())) {
      return applyRevoked(request);
    }
  }

  private Response.Builder applyRevoked(Request request) throws IOException {
    RenameRequest req = request.getRename();
    Caller caller = request.getCaller();
    long sealed = sealReplacedDirectory(request, req);
    DirectoryTouches touches = new DirectoryTouches();
    RenameResult.Local done;
    try {
      RenameResult result = renameCounting(request, req, caller, sealed, touches);
      if (result instanceof RenameResult.CrossesSlots elsewhere) {
        // The destination's directory lives on another slot: a two-phase rename.
        return crossSlot.run(request, elsewhere.destination());
      }
      done = (RenameResult.Local) result;
    } finally {
      // The replaced directory's home learns the outcome: dropped if replaced, unsealed if not.
      HomeChanges.drive(ctx, sealed);
    }
    touches.send(ctx);
    if (done.renamed()) {
      ctx.reclaimer().wake();
    }
    // Where the source went ("into" an existing directory included): snapshottable directories follow it.
    return Response.newBuilder().setBool(BoolResult.newBuilder().setValue(done.renamed())
        .setRenamedTo(done.renamed() ? done.to() : ""));
  }

  /**
   * The rename's batch on this slot alone, as {@link #apply} runs it (entry leases aside): what it
   * came to, without going on across slots. For tests.
   */
  RenameResult renameHere(Request request) throws IOException {
    return renameCounting(request, request.getRename(), request.getCaller(), -1, new DirectoryTouches());
  }

  /**
   * The rename's batch, with the moving directory counted first when it moves between quotas: the
   * need is found by a read before the batch ({@link #countsNeeded}), so the batch runs once.
   */
  private RenameResult renameCounting(Request request, RenameRequest req, Caller caller, long sealed,
      DirectoryTouches touches) throws IOException {
    long[] counted = countsNeeded(request, req);
    return ctx.ns().mutateLocked(m -> req.getMode() == RenameRequest.Mode.EXACT
        ? exact(m, caller, request, req, sealed, touches, counted)
        : legacy(m, caller, request, req, touches, counted));
  }

  /**
   * Resolves the source for a rename, locking its directory; a directory moving changes the
   * shape of the namespace, so that rename runs alone (see {@link Mutation}).
   */
  private ResolvedPath source(Mutation m, Request request, RenameRequest req) throws IOException {
    ResolvedPath src = ctx.resolver().resolveForUpdate(m, request.getResolution(), req.getSrc());
    if (src.last() != null && src.last().isDirectory()) {
      m.exclusive();
    }
    return src;
  }

  private RenameResult legacy(Mutation m, Caller caller, Request request, RenameRequest req,
      DirectoryTouches touches, long[] counted) throws IOException {
    String to = req.getDst();
    ResolvedPath src = source(m, request, req);
    ctx.access().checkTraverse(caller, src);
    Destination found = ctx.resolver().resolveDestinationForUpdate(m, request.getDstResolution(), to);
    if (found.isElsewhere()) {
      return crossesSlots(m, found);
    }
    ResolvedPath dst = found.path();
    ctx.access().checkTraverseToCreate(caller, dst);
    if (src.last() != null && dst.last() != null && dst.last().isDirectory()) {
      to = (dst.isRoot() ? "" : PathNames.join(dst.names(), dst.depth())) + "/" + src.lastName();
      found = ctx.resolver().resolveDestinationForUpdate(m, request.getDstResolution(), to);
      if (found.isElsewhere()) {
        return crossesSlots(m, found);
      }
      dst = found.path();
      ctx.access().checkTraverseToCreate(caller, dst);
    }
    checkAccess(caller, src, dst);
    if (src.last() == null || src.isRoot()) {
      return new RenameResult.Local(false, to);
    }
    if (dst.names().equals(src.names())) {
      // Renaming a file onto itself succeeds and changes nothing.
      return new RenameResult.Local(true, to);
    }
    if (PathNames.isSameOrBelow(src.names(), dst.names()) || dst.last() != null
        || dst.isRoot() || dst.parent() == null || dst.existingCount() < dst.depth()) {
      return new RenameResult.Local(false, to);
    }
    move(m, src, dst, null, touches, counted);
    return new RenameResult.Local(true, to);
  }

  /** The destination's directory is another slot's: this batch ends with nothing in it. */
  private static RenameResult crossesSlots(Mutation m, Destination found) {
    if (m.batch().count() > 0) {
      throw new IllegalStateException("a rename found its destination elsewhere after writing");
    }
    return new RenameResult.CrossesSlots(found.elsewhere());
  }

  /**
   * Rename with overwrite onto an empty directory homed on another slot: like rmdir, its home
   * seals it first (refused if it holds entries), with a home-sync intent written before, so it
   * ends up dropped or unsealed whatever happens. Returns its id, or -1.
   */
  private long sealReplacedDirectory(Request request, RenameRequest req) throws IOException {
    if (req.getMode() != RenameRequest.Mode.EXACT || !req.getOverwrite()
        || ctx.resolver().parse(req.getSrc()).equals(ctx.resolver().parse(req.getDst()))) {
      // Onto itself: nothing is replaced; exact() answers HDFS's "are the same" (a split
      // directory's home would otherwise refuse the seal as "not empty" first).
      return -1;
    }
    Destination found = ctx.ns().read(none -> ctx.resolver().resolveDestination(request.getDstResolution(), req.getDst()));
    if (found.isElsewhere()) {
      return -1;
    }
    ResolvedPath dst = found.path();
    Inode old = dst.last();
    if (old == null || !old.isDirectory() || ctx.partitions().holdsWhole(old) || !dst.entryIsLocal(dst.depth())) {
      return -1;
    }
    ctx.ns().prepare(batch -> HomeChanges.record(ctx, batch, dst, dst.depth(), old));
    try {
      ctx.homes().seal(old.zerothSlot, old.inodeId, req.getDst());
    } catch (IndexFsException e) {
      HomeChanges.drive(ctx, old.inodeId);
      if (e.code() == Code.DIRECTORY_NOT_EMPTY) {
        throw new IndexFsException(Code.RENAME_REFUSED, "rename destination directory is not empty: " + req.getDst());
      }
      throw e;
    }
    return old.inodeId;
  }

  private RenameResult exact(Mutation m, Caller caller, Request request, RenameRequest req, long sealed,
      DirectoryTouches touches, long[] counted) throws IOException {
    ResolvedPath src = source(m, request, req);
    ctx.access().checkTraverse(caller, src);
    Destination found = ctx.resolver().resolveDestinationForUpdate(m, request.getDstResolution(), req.getDst());
    if (found.isElsewhere()) {
      return crossesSlots(m, found);
    }
    ResolvedPath dst = found.path();
    if (dst.last() != null && dst.last().isDirectory()) {
      m.exclusive(); // replacing a directory
    }
    ctx.access().checkTraverseToCreate(caller, dst);
    checkAccess(caller, src, dst);
    if (src.last() == null) {
      throw new IndexFsException(Code.FILE_NOT_FOUND, "rename source " + req.getSrc() + " is not found.");
    }
    if (src.isRoot()) {
      throw new IndexFsException(Code.RENAME_REFUSED, "rename source cannot be the root");
    }
    if (dst.names().equals(src.names())) {
      throw new IndexFsException(Code.FILE_ALREADY_EXISTS,
          "The source " + req.getSrc() + " and destination " + req.getDst() + " are the same");
    }
    if (PathNames.isSameOrBelow(src.names(), dst.names())) {
      throw new IndexFsException(Code.RENAME_REFUSED, "Rename destination " + req.getDst()
          + " is a directory or file under source " + req.getSrc());
    }
    if (dst.isRoot()) {
      throw new IndexFsException(Code.RENAME_REFUSED, "rename destination cannot be the root");
    }
    Inode old = dst.last();
    if (old != null) {
      if (old.isDirectory() != src.last().isDirectory()) {
        // HDFS's words for either direction (FSDirRenameOp.validateOverwrite).
        throw new IndexFsException(Code.RENAME_REFUSED,
            "Source " + req.getSrc() + " and destination " + req.getDst() + " must both be directories");
      }
      if (!req.getOverwrite()) {
        throw new IndexFsException(Code.FILE_ALREADY_EXISTS, "rename destination " + req.getDst() + " already exists");
      }
      if (old.isDirectory() && !ctx.partitions().holdsWhole(old) && old.inodeId != sealed) {
        throw new IndexFsException(Code.STALE_RESOLUTION, "rename destination " + req.getDst() + " changed meanwhile");
      }
      if (old.isDirectory() && ctx.partitions().holdsWhole(old) && !SubtreeWalk.isEmpty(ctx, old.inodeId)) {
        throw new IndexFsException(Code.RENAME_REFUSED, "rename destination directory is not empty: " + req.getDst());
      }
      org.indexfs.server.snapshot.SnapshotOp.refuseReplacing(ctx, req.getDst(), old);
    }
    if (dst.existingCount() < dst.depth() || dst.parent() == null) {
      if (dst.ancestorIsFile()) {
        throw new IndexFsException(Code.PARENT_NOT_DIRECTORY,
            "rename destination parent " + PathNames.parentOf(req.getDst()) + " is a file.");
      }
      throw new IndexFsException(Code.FILE_NOT_FOUND,
          "rename destination parent " + PathNames.parentOf(req.getDst()) + " not found.");
    }
    if (old != null) {
      ctx.access().checkStickyBit(caller, dst);
    }
    move(m, src, dst, old, touches, counted);
    return new RenameResult.Local(true, req.getDst());
  }

  /**
   * HDFS checks permissions before any rename rule (FSDirRenameOp.renameTo): WRITE on the source's
   * parent (with the sticky bit when the source exists) and WRITE on the destination's deepest
   * existing ancestor. So a refused caller learns nothing about what exists.
   */
  private void checkAccess(Caller caller, ResolvedPath src, ResolvedPath dst) throws IOException {
    if (!src.isRoot() && src.existingCount() >= src.depth() && src.parent() != null) {
      ctx.access().checkParent(caller, src, Permission.WRITE);
      if (src.last() != null) {
        ctx.access().checkStickyBit(caller, src);
      }
    }
    if (!dst.isRoot()) {
      ctx.access().checkAncestor(caller, dst, Permission.WRITE);
    }
  }

  /**
   * Quotas above the source that are not above the destination lose what moves; those above the
   * destination only gain it — checked, as HDFS verifies the destination's quotas before a rename
   * (FSDirRenameOp.verifyQuotaForRename); a replaced entry leaves the destination's quotas.
   */
  private void chargeQuotas(Mutation m, ResolvedPath src, ResolvedPath dst, Inode moving, Inode replaced,
      long[] counted) throws IOException {
    List<QuotaRoot> from = QuotaRoot.above(src, src.depth());
    List<QuotaRoot> to = QuotaRoot.above(dst, dst.depth());
    List<QuotaRoot> leave = QuotaRoot.minus(from, to);
    List<QuotaRoot> enter = QuotaRoot.minus(to, from);
    if (!leave.isEmpty() || !enter.isEmpty()) {
      long[] usage = {1, Usage.space(moving)};
      if (moving.isDirectory()) {
        usage = counted;
        if (usage == null || usage[2] != moving.inodeId) {
          // The read before the batch saw another namespace (a race): the client's router forgets
          // what it cached and sends the call again, which counts afresh. Nothing was written.
          throw new IndexFsException(Code.STALE_RESOLUTION, src.path() + " changed while being renamed; retry");
        }
      }
      ctx.quotas().charge(m, enter, usage[0], usage[1]);
      ctx.quotas().charge(m, leave, -usage[0], -usage[1]);
    }
    if (replaced != null) {
      ctx.quotas().charge(m, to, -1, -Usage.space(replaced));
    }
  }

  /**
   * The moving directory's usage (itself and its subtree: {entries, space, its id}) when this
   * rename moves a directory between quotas, else null. Counted before the batch, as the
   * superuser (permissions do not matter here): counting may ask other slots, which no batch may
   * wait on. Decided by a read, so the batch checks again ({@link #chargeQuotas}).
   */
  private long[] countsNeeded(Request request, RenameRequest req) throws IOException {
    Inode moving;
    try {
      moving = ctx.ns().read(none -> movesBetweenQuotas(request, req));
    } catch (IndexFsException refused) {
      // Not a declaration: the batch meets the same refusal and answers it, in HDFS's order of checks.
      return null;
    }
    if (moving == null) {
      return null;
    }
    org.indexfs.server.Blocking.check("counting a directory moving between quotas");
    return Subtrees.usageOf(ctx, req.getSrc(), moving);
  }

  /**
   * The source directory, when this rename would move it between quotas on this slot; else null.
   * The caller's permissions are checked first, as the batch checks them before it charges: only a
   * rename the caller may make sets a count of a subtree going.
   */
  private Inode movesBetweenQuotas(Request request, RenameRequest req) throws IOException {
    Caller caller = request.getCaller();
    ResolvedPath src = ctx.resolver().resolve(request.getResolution(), req.getSrc());
    if (src.last() == null || !src.last().isDirectory() || src.isRoot()) {
      return null;
    }
    ctx.access().checkTraverse(caller, src);
    Destination found = ctx.resolver().resolveDestination(request.getDstResolution(), req.getDst());
    if (!found.isElsewhere() && req.getMode() == RenameRequest.Mode.LEGACY && found.path().last() != null
        && found.path().last().isDirectory()) {
      ResolvedPath dst = found.path();
      String into = (dst.isRoot() ? "" : PathNames.join(dst.names(), dst.depth())) + "/" + src.lastName();
      found = ctx.resolver().resolveDestination(request.getDstResolution(), into);
    }
    if (found.isElsewhere()) {
      return null; // a two-phase rename: its own steps charge the quotas
    }
    ResolvedPath dst = found.path();
    ctx.access().checkTraverseToCreate(caller, dst);
    checkAccess(caller, src, dst);
    if (PathNames.isSameOrBelow(src.names(), dst.names())) {
      return null; // refused by the batch
    }
    List<QuotaRoot> from = QuotaRoot.above(src, src.depth());
    List<QuotaRoot> to = QuotaRoot.above(dst, dst.depth());
    boolean between = !QuotaRoot.minus(from, to).isEmpty() || !QuotaRoot.minus(to, from).isEmpty();
    return between ? src.last() : null;
  }

  /** One batch: remove the source key, write the destination key, settle the replaced entry. */
  /** {@code counted}: the moving directory's usage, if counted yet (see {@link #chargeQuotas}). */
  private void move(Mutation m, ResolvedPath src, ResolvedPath dst, Inode replaced, DirectoryTouches touches,
      long[] counted) throws IOException {
    WriteBatch batch = m.batch();
    long now = System.currentTimeMillis();
    Inode moving = src.last();
    chargeQuotas(m, src, dst, moving, replaced, counted);
    Inode srcParent = src.parent();
    Inode dstParent = dst.parent();
    ctx.ns().deleteEntry(batch, srcParent.inodeId, src.lastName());
    ctx.ns().putEntry(batch, dstParent.inodeId, dst.lastName(), moving);
    if (moving.isDirectory()) {
      // A sync to its home still pending follows the entry to its new name.
      ctx.homes().move(batch, moving.inodeId, dstParent.inodeId, dst.lastName());
    }
    if (replaced != null && replaced.isDirectory() && ctx.partitions().holdsWhole(replaced)) {
      ctx.ns().deletePartition(batch, replaced.inodeId);
    }
    if (replaced != null && replaced.dataObject != null) {
      ctx.reclaimer().reclaimObject(batch, replaced.dataObject);
    }
    if (replaced != null) {
      ctx.ns().attrs().deleteFor(batch, replaced);
    }
    if (replaced != null && replaced.isUnderConstruction()) {
      ctx.leases().release(batch, replaced.inodeId);
    }
    if (moving.isUnderConstruction()) {
      // The writer keeps writing the renamed file (HDFS leases follow the inode, not the path).
      FileLease lease = ctx.leases().get(moving.inodeId);
      if (lease != null) {
        ctx.leases().put(batch, lease.movedTo(dstParent.inodeId, dst.lastName(), QuotaRoot.above(dst, dst.depth())));
      }
    }
    Entries.touchDirectory(ctx, batch, src, src.depth() - 1, now, touches);
    if (dstParent.inodeId != srcParent.inodeId) {
      Entries.touchDirectory(ctx, batch, dst, dst.depth() - 1, now, touches);
    }
  }
}
