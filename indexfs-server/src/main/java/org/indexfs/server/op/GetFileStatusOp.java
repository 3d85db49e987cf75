package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.filelease.FileLease;
import org.indexfs.server.ns.OwnStoragePolicy;
import org.indexfs.server.ns.ResolvedPath;

/**
 * {@code getFileStatus}: the attributes of one entry. The writer of a file that has no data object
 * yet also learns the object it may make (as create told it): an hdfs:// gateway makes a file's
 * object only at its first block, and the gateway that does may not be the one that created it.
 */
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
      FileStatus st = ctx.ns().toStatus(p.lastName(), p.last());
      return heldByCaller(p.last(), request) ? st.toBuilder()
          .setSpillObject(ctx.leases().get(p.last().inodeId).spillObject())
          .setSpillPolicy(OwnStoragePolicy.inherited(ctx.ns().attrs(), p, request.getResolution().getAncestorsList()))
          .build() : st;
    });
    return Response.newBuilder().setStatus(status);
  }

  /** The caller holds the write lease of {@code file}, which is still inline (no data object recorded). */
  private boolean heldByCaller(Inode file, Request request) {
    if (file.isDirectory() || !file.isUnderConstruction() || file.dataObject != null) {
      return false;
    }
    FileLease lease = ctx.leases().get(file.inodeId);
    return lease != null && !lease.spillObject().isEmpty() && !request.getCaller().getClientId().isEmpty()
        && lease.holder().equals(request.getCaller().getClientId());
  }
}
