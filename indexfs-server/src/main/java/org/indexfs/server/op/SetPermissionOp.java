package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.Permission;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.proto.SetPermissionRequest;
import org.indexfs.server.lease.EntryLeases;
import org.indexfs.server.ns.ResolvedPath;

/** {@code setPermission}: only the owner or a superuser may change the mode bits. */
public final class SetPermissionOp implements Operation {
  private final OpContext ctx;

  public SetPermissionOp(OpContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    SetPermissionRequest req = request.getSetPermission();
    long synced;
    try (EntryLeases.Revocation revoked = DirectoryLeases.revoke(ctx, request.getResolution(), req.getPath())) {
      synced = ctx.ns().mutate(batch -> {
        ResolvedPath p = ctx.resolver().resolve(request.getResolution(), req.getPath());
        ctx.access().checkTraverse(request.getCaller(), p);
        if (p.last() == null) {
          throw IndexFsException.notFound(req.getPath());
        }
        ctx.access().checkOwner(request.getCaller(), p);
        Inode updated = p.last().copy();
        updated.permission = req.getPermission() & Permission.MASK;
        Entries.put(ctx.ns(), batch, p, p.depth(), updated);
        return HomeChanges.record(ctx, batch, p, p.depth(), updated);
      });
    }
    HomeChanges.drive(ctx, synced);
    return Response.newBuilder();
  }
}
