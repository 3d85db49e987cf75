package org.indexfs.server.op;

import com.google.protobuf.ByteString;
import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.Permission;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Code;
import org.indexfs.proto.OpenResult;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.ns.ResolvedPath;

/**
 * {@code open}: READ on the file; small files come back with their bytes in the same reply. Like
 * HDFS's getBlockLocations, it records the access ({@link AccessTimes}).
 */
public final class OpenOp implements Operation {
  private final OpContext ctx;
  private final AccessTimes accessTimes;

  public OpenOp(OpContext ctx, AccessTimes accessTimes) {
    this.ctx = ctx;
    this.accessTimes = accessTimes;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    String path = request.getOpen().getPath();
    Inode[] seen = {null};
    OpenResult result = ctx.ns().read(none -> {
      ResolvedPath p = ctx.resolver().resolve(request.getResolution(), path);
      ctx.access().checkTraverse(request.getCaller(), p);
      if (p.last() == null) {
        throw IndexFsException.notFound(path);
      }
      if (p.last().isDirectory()) {
        throw new IndexFsException(Code.IS_DIRECTORY, "Path is not a file: " + path);
      }
      ctx.access().checkSelf(request.getCaller(), p, Permission.READ);
      checkReadableBySuperuser(request.getCaller(), p.last());
      seen[0] = p.last();
      OpenResult.Builder b = OpenResult.newBuilder().setStatus(ctx.ns().toStatus(p.lastName(), p.last()));
      if (p.last().inlineData != null) {
        b.setInlineData(ByteString.copyFrom(p.last().inlineData));
      }
      return b.build();
    });
    accessTimes.touchOnRead(ctx, request, path, seen[0]);
    return Response.newBuilder().setOpen(result);
  }

  /** A file marked {@code security.hdfs.unreadable.by.superuser} is not opened for the superuser (HDFS-6705). */
  private void checkReadableBySuperuser(org.indexfs.proto.Caller caller, org.indexfs.common.schema.Inode file)
      throws IOException {
    if (file.has(org.indexfs.common.schema.Inode.FLAG_XATTRS) && ctx.access().enabled() && ctx.access().isSuperuser(caller)
        && ctx.ns().attrs().xattrs(file.inodeId).stream()
            .anyMatch(x -> x.name().equals(org.indexfs.server.xattr.XAttrRules.UNREADABLE_BY_SUPERUSER))) {
      throw new IndexFsException(Code.ACCESS_DENIED, "Access is denied for " + caller.getUser()
          + " since the superuser is not allowed to perform this operation.");
    }
  }
}
