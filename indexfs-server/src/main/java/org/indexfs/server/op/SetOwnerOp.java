package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.proto.SetOwnerRequest;
import org.indexfs.server.lease.EntryLeases;
import org.indexfs.server.ns.ResolvedPath;

/**
 * {@code setOwner} as HDFS: only a superuser gives an entry away; its owner may change the group
 * to one the owner belongs to.
 */
public final class SetOwnerOp implements Operation {
  private final OpContext ctx;

  public SetOwnerOp(OpContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    SetOwnerRequest req = request.getSetOwner();
    Caller caller = request.getCaller();
    // An object file's object changes hands first, so HDFS is never more open than IndexFS.
    String object = ctx.ns().read(none -> allowed(request, ctx.resolver().resolve(request.getResolution(), req.getPath())).dataObject);
    if (object != null) {
      ctx.data().follow(object, req.getOwner().isEmpty() ? null : req.getOwner(),
          req.getGroup().isEmpty() ? null : req.getGroup(), null);
    }
    long synced;
    try (EntryLeases.Revocation revoked = DirectoryLeases.revoke(ctx, request.getResolution(), req.getPath())) {
      synced = ctx.ns().mutate(batch -> {
        ResolvedPath p = ctx.resolver().resolve(request.getResolution(), req.getPath());
        Inode updated = allowed(request, p).copy();
        if (!req.getOwner().isEmpty()) {
          updated.ownerId = ctx.ns().principals().idOf(req.getOwner());
        }
        if (!req.getGroup().isEmpty()) {
          updated.groupId = ctx.ns().principals().idOf(req.getGroup());
        }
        Entries.put(ctx.ns(), batch, p, p.depth(), updated);
        return HomeChanges.record(ctx, batch, p, p.depth(), updated);
      });
    }
    HomeChanges.drive(ctx, synced);
    return Response.newBuilder();
  }

  /** The entry, once the caller may make this change (HDFS's rules and words). */
  private Inode allowed(Request request, ResolvedPath p) throws IOException {
    SetOwnerRequest req = request.getSetOwner();
    Caller caller = request.getCaller();
    ctx.access().checkTraverse(caller, p);
    if (p.last() == null) {
      throw IndexFsException.notFound(req.getPath());
    }
    ctx.access().checkOwner(caller, p);
    if (!ctx.access().isSuperuser(caller)) {
      if (!req.getOwner().isEmpty() && !req.getOwner().equals(caller.getUser())) {
        throw new IndexFsException(Code.ACCESS_DENIED, "User " + caller.getUser()
            + " is not a super user (non-super user cannot change owner).");
      }
      if (!req.getGroup().isEmpty() && !caller.getGroupsList().contains(req.getGroup())) {
        throw new IndexFsException(Code.ACCESS_DENIED,
            "User " + caller.getUser() + " does not belong to " + req.getGroup());
      }
    }
    return p.last();
  }
}
