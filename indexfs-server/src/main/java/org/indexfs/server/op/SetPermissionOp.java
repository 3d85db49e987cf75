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
    // An object file's object takes the new mode first, so HDFS is never more open than IndexFS.
    String object = ctx.ns().read(none -> allowed(request).dataObject);
    if (object != null) {
      ctx.data().follow(object, null, null, (short) (req.getPermission() & Permission.MASK & ~Permission.STICKY));
    }
    long synced;
    try (EntryLeases.Revocation revoked = DirectoryLeases.revoke(ctx, request.getResolution(), req.getPath())) {
      synced = ctx.ns().mutate(batch -> {
        ResolvedPath p = ctx.resolver().resolve(request.getResolution(), req.getPath());
        Inode updated = allowed(request, p).copy();
        updated.permission = req.getPermission() & Permission.MASK;
        Entries.put(ctx.ns(), batch, p, p.depth(), updated);
        return HomeChanges.record(ctx, batch, p, p.depth(), updated);
      });
    }
    HomeChanges.drive(ctx, synced);
    return Response.newBuilder();
  }

  private Inode allowed(Request request) throws IOException {
    return allowed(request, ctx.resolver().resolve(request.getResolution(), request.getSetPermission().getPath()));
  }

  /** The entry, once the caller may change its mode. */
  private Inode allowed(Request request, ResolvedPath p) throws IOException {
    ctx.access().checkTraverse(request.getCaller(), p);
    if (p.last() == null) {
      throw IndexFsException.notFound(request.getSetPermission().getPath());
    }
    ctx.access().checkOwner(request.getCaller(), p);
    return p.last();
  }
}
