package org.indexfs.server.op;

import java.io.IOException;
import org.apache.hadoop.fs.permission.AclEntry;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.AclStatus;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.acl.AclCodec;
import org.indexfs.server.acl.AclModel;
import org.indexfs.server.acl.AclSwitch;
import org.indexfs.server.ns.ResolvedPath;

/** {@code getAclStatus}: owner, group, permission and the extended entries, for anyone who may traverse to it. */
public final class GetAclStatusOp implements Operation {
  private final OpContext ctx;
  private final AclSwitch acls;

  public GetAclStatusOp(OpContext ctx, AclSwitch acls) {
    this.ctx = ctx;
    this.acls = acls;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    String path = request.getGetAclStatus().getPath();
    acls.check();
    AclStatus status = ctx.ns().read(none -> {
      ResolvedPath p = ctx.resolver().resolve(request.getResolution(), path);
      ctx.access().checkTraverse(request.getCaller(), p);
      Inode entry = p.last();
      if (entry == null) {
        throw XAttrChange.cannotFind(path);
      }
      AclStatus.Builder b = AclStatus.newBuilder()
          .setOwner(ctx.ns().principals().nameOf(entry.ownerId))
          .setGroup(ctx.ns().principals().nameOf(entry.groupId))
          .setSticky((entry.permission & 01000) != 0).setPermission(entry.permission);
      if (entry.has(Inode.FLAG_ACL)) {
        byte[] stored = entry.acl != null ? entry.acl : ctx.ns().attrs().acl(entry.inodeId);
        for (AclEntry e : AclModel.reported(stored)) {
          b.addEntries(AclCodec.toProto(e));
        }
      }
      return b.build();
    });
    return Response.newBuilder().setAclStatus(status);
  }
}
