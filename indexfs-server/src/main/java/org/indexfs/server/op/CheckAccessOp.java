package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.CheckAccessRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.ns.ResolvedPath;

/** {@code FileSystem.access} as HDFS's checkAccess: traverse, then the asked action on the entry, ACLs included. */
public final class CheckAccessOp implements Operation {
  private final OpContext ctx;

  public CheckAccessOp(OpContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public boolean mayRunOnIoThread(Request request) {
    return true;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    CheckAccessRequest req = request.getCheckAccess();
    ctx.ns().read(none -> {
      ResolvedPath p = ctx.resolver().resolve(request.getResolution(), req.getPath());
      ctx.access().checkTraverse(request.getCaller(), p);
      if (p.last() == null) {
        throw new IndexFsException(Code.FILE_NOT_FOUND, "Path not found: " + req.getPath());
      }
      ctx.access().checkSelf(request.getCaller(), p, req.getAction() & 7);
      return null;
    });
    return Response.newBuilder();
  }
}
