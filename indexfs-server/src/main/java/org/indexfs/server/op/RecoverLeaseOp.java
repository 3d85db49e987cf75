package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.Permission;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.BoolResult;
import org.indexfs.proto.Code;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.filelease.FileLease;
import org.indexfs.server.filelease.LeaseTable;
import org.indexfs.server.ns.ResolvedPath;

/**
 * {@code recoverLease} (HDFS DistributedFileSystem.recoverLease): closes a file whose writer is
 * gone, whoever holds it, keeping every byte up to its last hflush. True when the file is closed
 * on return; false while the data tier is still settling the object's last block (call again).
 */
public final class RecoverLeaseOp implements Operation {
  /** A running concat holds the file: not closed yet, nothing to recover. */
  private static final long CONCAT_RUNNING = Long.MIN_VALUE;
  private final OpContext ctx;

  public RecoverLeaseOp(OpContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    String path = request.getRecoverLease().getPath();
    Long recovering = ctx.ns().mutate(batch -> {
      ResolvedPath p = ctx.resolver().resolve(request.getResolution(), path);
      ctx.access().checkTraverse(request.getCaller(), p);
      Inode file = p.last();
      if (file == null) {
        throw IndexFsException.notFound(path);
      }
      if (file.isDirectory()) {
        throw new IndexFsException(Code.IS_DIRECTORY, "Path is not a file: " + path);
      }
      if (!file.isUnderConstruction()) {
        return null;
      }
      ctx.access().checkSelf(request.getCaller(), p, Permission.WRITE);
      FileLease lease = ctx.leases().get(file.inodeId);
      if (lease == null) {
        lease = new FileLease(file.inodeId, LeaseTable.RECOVERY_HOLDER, p.parent().inodeId, p.lastName(), "");
      } else if (lease.recovering()) {
        return file.inodeId;
      } else if (LeaseTable.CONCAT_HOLDER.equals(lease.holder()) && !ctx.leases().abandonedConcat(lease)) {
        return CONCAT_RUNNING;
      }
      return ctx.recovery().start(batch, file, lease).recovering() ? file.inodeId : null;
    });
    boolean closed = recovering == null || recovering != CONCAT_RUNNING && ctx.recovery().advance(recovering);
    ctx.reclaimer().wake();
    return Response.newBuilder().setBool(BoolResult.newBuilder().setValue(closed));
  }
}
