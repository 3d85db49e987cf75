package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.Permission;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.BoolResult;
import org.indexfs.proto.Code;
import org.indexfs.proto.DeleteRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.ns.ResolvedPath;

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
    DeleteRequest req = request.getDelete();
    boolean deleted = ctx.ns().mutate(batch -> {
      ResolvedPath p = ctx.resolver().resolve(req.getPath());
      ctx.access().checkTraverse(request.getCaller(), p);
      Inode target = p.last();
      if (target == null) {
        return false;
      }
      boolean empty = !target.isDirectory() || SubtreeWalk.isEmpty(ctx, target.inodeId);
      if (target.isDirectory() && !empty && !req.getRecursive()) {
        throw new IndexFsException(Code.DIRECTORY_NOT_EMPTY, "`" + p.path() + " is non empty': Directory is not empty");
      }
      if (p.isRoot()) {
        // HDFS refuses to remove the root (FSDirDeleteOp.deleteAllowed) and answers false.
        return false;
      }
      ctx.access().checkParent(request.getCaller(), p, Permission.WRITE_EXECUTE);
      ctx.access().checkStickyBit(request.getCaller(), p);
      // ALL on every non-empty directory of the subtree (FSDirDeleteOp: subAccess=ALL,
      // ignoreEmptyDir=true): an empty directory holds nothing its mode could protect.
      if (!empty && ctx.access().requiresSubtreeChecks(request.getCaller())) {
        ctx.access().checkSubtreeDirectory(request.getCaller(), p.path(), target, Permission.ALL);
        SubtreeWalk.walk(ctx, p.path(), target.inodeId, (path, inode) -> {
          if (inode.isDirectory() && !SubtreeWalk.isEmpty(ctx, inode.inodeId)) {
            ctx.access().checkSubtreeDirectory(request.getCaller(), path, inode, Permission.ALL);
          }
        });
      }
      ctx.ns().deleteEntry(batch, p.parent().inodeId, p.lastName());
      Entries.touchDirectory(ctx.ns(), batch, p, p.depth() - 1, System.currentTimeMillis());
      if (target.dataObject != null) {
        ctx.reclaimer().reclaimObject(batch, target.dataObject);
      }
      if (target.isUnderConstruction()) {
        // Its writer's next flush or close fails, as in HDFS; its unrecorded spill object is an orphan.
        ctx.leases().release(batch, target.inodeId);
      }
      if (!empty) {
        ctx.reclaimer().reclaimSubtree(batch, target.inodeId);
      }
      return true;
    });
    if (deleted) {
      ctx.reclaimer().wake();
    }
    return Response.newBuilder().setBool(BoolResult.newBuilder().setValue(deleted));
  }
}
