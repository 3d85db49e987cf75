package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.PathNames;
import org.indexfs.common.Permission;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.BoolResult;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.proto.RenameInRequest;
import org.indexfs.proto.RenameRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.ns.ResolvedPath;
import org.indexfs.server.FaultPoints;
import org.indexfs.server.rename.RenameIntents;
import org.indexfs.server.quota.QuotaRoot;
import org.indexfs.server.quota.Usage;
import org.indexfs.server.store.AttrTable;

/**
 * The destination's side of a cross-slot rename ({@link CrossSlotRename}): HDFS's destination
 * rules (FSDirRenameOp) for the two rule sets, then the entry and the {@code rename.in} record in
 * one batch. LEGACY refusals answer false, EXACT ones throw, as on one slot. Only servers may ask.
 */
public final class RenameInOp implements Operation {
  private final OpContext ctx;
  private final RenameIntents intents;

  public RenameInOp(OpContext ctx, RenameIntents intents) {
    this.ctx = ctx;
    this.intents = intents;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    if (!ctx.access().isSuperuser(request.getCaller())) {
      throw new IndexFsException(Code.ACCESS_DENIED, "rename_in is for servers only");
    }
    RenameInRequest in = request.getRenameIn();
    boolean landed;
    String[] to = {in.getDst()};
    if (in.getSettle()) {
      landed = ctx.ns().mutate(batch -> {
        if (intents.landed(in.getTxid())) {
          return true;
        }
        intents.recordVoid(batch, in.getTxid());
        return false;
      });
    } else {
      // The work may run again (alone, or after a quota share is renewed): fresh touches each time.
      DirectoryTouches[] touches = {null};
      landed = ctx.ns().mutateLocked(m -> {
        m.exclusive();
        touches[0] = new DirectoryTouches();
        return land(m, request, in, touches[0], to);
      });
      FaultPoints.at("in.landed");
      touches[0].send(ctx);
    }
    // Where the entry landed ("into" included): the source's side tells snapshottable directories.
    return Response.newBuilder().setBool(BoolResult.newBuilder().setValue(landed)
        .setRenamedTo(landed && !in.getSettle() ? to[0] : ""));
  }

  private boolean land(org.indexfs.server.ns.Mutation m, Request request, RenameInRequest in, DirectoryTouches touches,
      String[] to) throws IOException {
    org.rocksdb.WriteBatch batch = m.batch();
    to[0] = in.getDst(); // the work may run again
    if (intents.landed(in.getTxid())) {
      to[0] = ""; // landed by an earlier try: where ("into" or not) is not known now
      return true;
    }
    if (intents.isVoid(in.getTxid())) {
      throw new IndexFsException(Code.RENAME_REFUSED, "rename " + in.getTxid() + " was already rolled back");
    }
    boolean exact = in.getMode() == RenameRequest.Mode.EXACT;
    Caller caller = in.getChecked();
    Inode moving = Inode.decode(in.getEntry().toByteArray());
    moving.ownerId = ctx.ns().principals().idOf(in.getOwner());
    moving.groupId = ctx.ns().principals().idOf(in.getGroup());
    ResolvedPath dst = ctx.resolver().resolveDestinationOrRedirect(request.getDstResolution(), in.getDst());
    ctx.access().checkTraverseToCreate(caller, dst);
    if (!exact && dst.last() != null && dst.last().isDirectory()) {
      String srcName = PathNames.components(in.getSrc(), Integer.MAX_VALUE).stream().reduce((a, b) -> b).orElse("");
      String into = (dst.isRoot() ? "" : PathNames.join(dst.names(), dst.depth())) + "/" + srcName;
      dst = ctx.resolver().resolveDestinationOrRedirect(request.getDstResolution(), into);
      ctx.access().checkTraverseToCreate(caller, dst);
      to[0] = into;
    }
    if (!dst.isRoot()) {
      ctx.access().checkAncestor(caller, dst, Permission.WRITE);
    }
    if (moving.isDirectory()) {
      for (int i = 0; i < dst.existingCount(); i++) {
        if (dst.inodeAt(i).inodeId == moving.inodeId) {
          return refuse(exact, Code.RENAME_REFUSED, "Rename destination " + in.getDst()
              + " is a directory or file under source " + in.getSrc());
        }
      }
    }
    if (dst.isRoot()) {
      return refuse(exact, Code.RENAME_REFUSED, "rename destination cannot be the root");
    }
    Inode old = dst.last();
    if (!exact && (old != null || dst.parent() == null || dst.existingCount() < dst.depth())) {
      return false;
    }
    if (old != null) {
      if (old.isDirectory() != moving.isDirectory()) {
        // HDFS's words for either direction (FSDirRenameOp.validateOverwrite).
        throw new IndexFsException(Code.RENAME_REFUSED,
            "Source " + in.getSrc() + " and destination " + in.getDst() + " must both be directories");
      }
      if (!in.getOverwrite()) {
        throw new IndexFsException(Code.FILE_ALREADY_EXISTS, "rename destination " + in.getDst() + " already exists");
      }
      boolean whole = old.isDirectory() && ctx.partitions().holdsWhole(old);
      if (old.isDirectory() && !whole) {
        // Before the refusal below (README): HDFS's refusal of a directory with snapshots, asked of its home.
        org.indexfs.server.snapshot.SnapshotOp.refuseReplacing(ctx, in.getDst(), old);
      }
      if (old.isDirectory() && (!whole || !SubtreeWalk.isEmpty(ctx, old.inodeId))) {
        throw new IndexFsException(!whole ? Code.UNSUPPORTED : Code.RENAME_REFUSED,
            "rename destination directory cannot be replaced: " + in.getDst());
      }
      org.indexfs.server.snapshot.SnapshotOp.refuseReplacing(ctx, in.getDst(), old);
    }
    if (dst.existingCount() < dst.depth() || dst.parent() == null) {
      if (dst.ancestorIsFile()) {
        throw new IndexFsException(Code.PARENT_NOT_DIRECTORY,
            "rename destination parent " + PathNames.parentOf(in.getDst()) + " is a file.");
      }
      throw new IndexFsException(Code.FILE_NOT_FOUND,
          "rename destination parent " + PathNames.parentOf(in.getDst()) + " not found.");
    }
    chargeQuotas(m, in, dst, moving, old);
    if (old != null) {
      ctx.access().checkStickyBit(caller, dst);
      ctx.ns().attrs().deleteFor(batch, old);
      if (old.isDirectory()) {
        ctx.ns().deletePartition(batch, old.inodeId);
      } else if (old.dataObject != null) {
        ctx.reclaimer().reclaimObject(batch, old.dataObject);
      }
      if (old.isUnderConstruction()) {
        ctx.leases().release(batch, old.inodeId);
      }
    }
    java.util.List<AttrTable.Row> rows = new java.util.ArrayList<>();
    for (org.indexfs.proto.AttrRow row : in.getAttrsList()) {
      rows.add(new AttrTable.Row(row.getKey().toByteArray(), row.getValue().toByteArray()));
    }
    ctx.ns().attrs().putRows(batch, rows);
    moving.acl = AttrTable.aclOf(rows);
    ctx.ns().putEntry(batch, dst.parent().inodeId, dst.lastName(), moving);
    Entries.touchDirectory(ctx, batch, dst, dst.depth() - 1, System.currentTimeMillis(), touches);
    intents.recordLanded(batch, in.getTxid());
    return true;
  }

  /**
   * Both sides' quota bookkeeping, here: quotas above the destination that were not above the source
   * gain the moving entry (checked), quotas only above the source lose it, and the destination's
   * quotas lose a replaced entry. A directory moving between quotas must arrive counted.
   */
  private void chargeQuotas(org.indexfs.server.ns.Mutation m, RenameInRequest in, ResolvedPath dst, Inode moving,
      Inode old) throws IOException {
    java.util.List<QuotaRoot> to = QuotaRoot.above(dst, dst.depth());
    java.util.List<QuotaRoot> from = new java.util.ArrayList<>();
    for (long id : in.getSrcQuotaRootsList()) {
      from.add(new QuotaRoot(id, -1, ""));
    }
    java.util.List<QuotaRoot> enter = QuotaRoot.minus(to, from);
    java.util.List<QuotaRoot> leave = QuotaRoot.minus(from, to);
    if (!enter.isEmpty() || !leave.isEmpty()) {
      if (in.getNsCount() <= 0) {
        throw new IndexFsException(Code.COUNTS_NEEDED, in.getSrc() + " moves between quotas: count it first");
      }
      ctx.quotas().charge(m, enter, in.getNsCount(), in.getDsCount());
      ctx.quotas().charge(m, leave, -in.getNsCount(), -in.getDsCount());
    }
    if (old != null) {
      ctx.quotas().charge(m, to, -1, -Usage.space(old));
    }
  }

  private static boolean refuse(boolean exact, Code code, String message) throws IndexFsException {
    if (exact) {
      throw new IndexFsException(code, message);
    }
    return false;
  }
}
