package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.Permission;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.BoolResult;
import org.indexfs.proto.Code;
import org.indexfs.proto.MkdirsRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.call.Call;
import org.indexfs.server.policy.SubtreePolicies;
import org.indexfs.server.acl.CreateModes;
import org.indexfs.server.audit.AuditNote;
import org.indexfs.server.ns.ResolvedPath;
import org.indexfs.server.quota.QuotaRoot;
import org.rocksdb.WriteBatch;

/** {@code mkdirs}: creates a directory and any missing parents; true if it exists afterwards. */
public final class MkdirsOp implements Operation {
  private final OpContext ctx;

  public MkdirsOp(OpContext ctx) {
    this.ctx = ctx;
  }

  private void noteForAudit(Call call, Inode dir) {
    AuditNote.perm(call, ctx.ns().principals().nameOf(dir.ownerId), ctx.ns().principals().nameOf(dir.groupId), true,
        dir.permission);
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    return apply(Call.detached(request));
  }

  @Override
  public Response.Builder apply(Call call) throws IOException {
    Request request = call.request();
    MkdirsRequest req = request.getMkdirs();
    org.indexfs.common.PathNames.checkPathLength("mkdirs", req.getPath());
    SnapshotPaths.checkCreatable(ctx, request.getResolution(), ctx.resolver().parse(req.getPath()));
    long[] synced = {-1};
    long[] parentOf = {0};
    int[] policy = {0};
    DirectoryTouches touches = new DirectoryTouches();
    boolean created = ctx.ns().mutateLocked(m -> {
      WriteBatch batch = m.batch();
      ResolvedPath p = ctx.resolver().resolveForUpdate(m, request.getResolution(), req.getPath());
      ctx.access().checkTraverseToCreate(request.getCaller(), p);
      policy[0] = SubtreePolicies.flagsAt(p);
      if (p.ancestorIsFile()) {
        throw IndexFsException.parentNotDirectory(p.pathAt(p.existingCount() - 1));
      }
      if (p.last() != null) {
        if (p.last().isDirectory()) {
          noteForAudit(call, p.last());
          return true;
        }
        throw new IndexFsException(Code.FILE_ALREADY_EXISTS, "Path is not a directory: " + p.path());
      }
      ctx.access().checkAncestor(request.getCaller(), p, Permission.WRITE);
      ctx.quotas().chargeOneByOne(m, QuotaRoot.above(p, p.depth()), p.depth() - p.existingCount() + 1);
      // One new directory under an existing parent is placed by power of two choices (DESIGN §3);
      // the implicit parents of mkdir -p stay with their parent, so the whole chain is one batch.
      boolean single = p.existingCount() == p.depth();
      int home = single ? ctx.placement().chooseHome() : ctx.ns().slot();
      CreateModes modes = new CreateModes(req.getPermission(), req.hasUnmasked() ? req.getUnmasked() : null);
      Inode dir = Entries.createDirectories(ctx, batch, request.getCaller(), p, p.depth(), modes,
          true, System.currentTimeMillis(), home, touches);
      synced[0] = HomeChanges.record(ctx, batch, p, p.depth(), dir);
      noteForAudit(call, dir);
      parentOf[0] = p.inodeAt(p.existingCount() - 1).inodeId;
      return true;
    });
    if (parentOf[0] != 0) {
      ctx.splits().noteInsert(parentOf[0]);
    }
    if (synced[0] != -1) {
      // The new home is told after the entry is durable (on a handler thread: see mayRunOnIoThread).
      ctx.ns().awaitDeferred();
      HomeChanges.drive(ctx, synced[0]);
    }
    touches.send(ctx);
    return Response.newBuilder().setBool(BoolResult.newBuilder().setValue(created)).setPolicyFlags(policy[0]);
  }
}
