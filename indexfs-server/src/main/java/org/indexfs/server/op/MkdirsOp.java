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
import org.indexfs.server.ns.ResolvedPath;

/** {@code mkdirs}: creates a directory and any missing parents; true if it exists afterwards. */
public final class MkdirsOp implements Operation {
  private final OpContext ctx;

  public MkdirsOp(OpContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    MkdirsRequest req = request.getMkdirs();
    long[] synced = {-1};
    long[] parentOf = {0};
    DirectoryTouches touches = new DirectoryTouches();
    boolean created = ctx.ns().mutate(batch -> {
      ResolvedPath p = ctx.resolver().resolve(request.getResolution(), req.getPath());
      ctx.access().checkTraverse(request.getCaller(), p);
      if (p.ancestorIsFile()) {
        throw IndexFsException.parentNotDirectory(p.pathAt(p.existingCount() - 1));
      }
      if (p.last() != null) {
        if (p.last().isDirectory()) {
          return true;
        }
        throw new IndexFsException(Code.FILE_ALREADY_EXISTS, "Path is not a directory: " + p.path());
      }
      ctx.access().checkAncestor(request.getCaller(), p, Permission.WRITE);
      // One new directory under an existing parent is placed by power of two choices (DESIGN §3);
      // the implicit parents of mkdir -p stay with their parent, so the whole chain is one batch.
      boolean single = p.existingCount() == p.depth();
      int home = single ? ctx.placement().chooseHome() : ctx.ns().slot();
      Inode dir = Entries.createDirectories(ctx, batch, request.getCaller(), p, p.depth(), req.getPermission(),
          true, System.currentTimeMillis(), home, touches);
      synced[0] = HomeChanges.record(ctx, batch, p, p.depth(), dir);
      parentOf[0] = p.inodeAt(p.existingCount() - 1).inodeId;
      return true;
    });
    if (parentOf[0] != 0) {
      ctx.splits().noteInsert(parentOf[0]);
    }
    HomeChanges.drive(ctx, synced[0]);
    touches.send(ctx);
    return Response.newBuilder().setBool(BoolResult.newBuilder().setValue(created));
  }
}
