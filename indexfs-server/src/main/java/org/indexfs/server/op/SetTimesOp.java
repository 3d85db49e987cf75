package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.Permission;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.proto.SetTimesRequest;
import org.indexfs.server.ns.ResolvedPath;

/** {@code setTimes}: needs WRITE on the entry, as in HDFS; -1 leaves a time unchanged. */
public final class SetTimesOp implements Operation {
  private final OpContext ctx;
  private final AccessTimes accessTimes;

  public SetTimesOp(OpContext ctx, AccessTimes accessTimes) {
    this.ctx = ctx;
    this.accessTimes = accessTimes;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    SetTimesRequest req = request.getSetTimes();
    accessTimes.checkSettable(req.getAtime());
    ctx.ns().mutateLocked(m -> {
      ResolvedPath p = ctx.resolver().resolveForUpdate(m, request.getResolution(), req.getPath());
      ctx.access().checkTraverse(request.getCaller(), p);
      if (p.last() == null) {
        throw IndexFsException.notFound(req.getPath());
      }
      if (p.last().isDirectory()) {
        // A directory's own entry is written under its lock, not its parent's: run alone.
        m.exclusive();
      }
      ctx.access().checkSelf(request.getCaller(), p, Permission.WRITE);
      Inode updated = p.last().copy();
      if (req.getMtime() >= 0) {
        updated.mtime = req.getMtime();
      }
      if (req.getAtime() >= 0) {
        updated.atime = req.getAtime();
      }
      Entries.put(ctx.ns(), m.batch(), p, p.depth(), updated);
      return null;
    });
    return Response.newBuilder();
  }
}
