package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.AccessRequest;
import org.indexfs.proto.BoolResult;
import org.indexfs.proto.Code;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.ns.ResolvedPath;

/**
 * {@code FileSystem.access} answered where the permissions are, as the NameNode's checkAccess
 * answers it: EXECUTE on every directory on the way, then "Path not found" for a missing entry,
 * then {@code mode} on the entry itself; the superuser and the supergroup pass. Hadoop's default
 * asks the client's own idea of its user and groups, which is wrong both ways.
 */
public final class AccessOp implements Operation {
  private final OpContext ctx;

  public AccessOp(OpContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    AccessRequest req = request.getAccess();
    if (Integer.compareUnsigned(req.getMode(), 7) > 0) {
      throw IndexFsException.invalidArgument("Invalid access mode " + Integer.toUnsignedString(req.getMode()));
    }
    ctx.ns().read(none -> {
      ResolvedPath p = ctx.resolver().resolve(request.getResolution(), req.getPath());
      ctx.access().checkTraverse(request.getCaller(), p);
      if (p.last() == null) {
        throw new IndexFsException(Code.FILE_NOT_FOUND, "Path not found: " + req.getPath());
      }
      ctx.access().checkSelf(request.getCaller(), p, req.getMode());
      return null;
    });
    return Response.newBuilder().setBool(BoolResult.newBuilder().setValue(true));
  }
}
