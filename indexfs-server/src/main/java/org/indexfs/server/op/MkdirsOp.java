package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.Permission;
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
    boolean created = ctx.ns().mutate(batch -> {
      ResolvedPath p = ctx.resolver().resolve(req.getPath());
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
      ctx.access().checkAncestor(request.getCaller(), p, Permission.WRITE_EXECUTE);
      Entries.createDirectories(ctx.ns(), batch, request.getCaller(), p, p.depth(), req.getPermission(),
          true, System.currentTimeMillis());
      return true;
    });
    return Response.newBuilder().setBool(BoolResult.newBuilder().setValue(created));
  }
}
