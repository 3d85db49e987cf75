package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.ns.ResolvedPath;

/** {@code getFileStatus}: the attributes of one entry. */
public final class GetFileStatusOp implements Operation {
  private final OpContext ctx;

  public GetFileStatusOp(OpContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    String path = request.getGetFileStatus().getPath();
    FileStatus status = ctx.ns().read(none -> {
      ResolvedPath p = ctx.resolver().resolve(request.getResolution(), path);
      if (p.ancestorIsFile() && ctx.access().isSuperuser(request.getCaller())) {
        // HDFS's getFileInfo answers the superuser "not found" where a file is on the way
        // (FSDirStatAndListingOp: "current fs contracts expect superuser to receive null").
        throw IndexFsException.notFound(path);
      }
      ctx.access().checkTraverse(request.getCaller(), p);
      if (p.last() == null) {
        throw IndexFsException.notFound(path);
      }
      return ctx.ns().toStatus(p.lastName(), p.last());
    });
    return Response.newBuilder().setStatus(status);
  }
}
