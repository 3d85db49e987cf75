package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.CompleteRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.filelease.FileLease;
import org.rocksdb.WriteBatch;

/**
 * Closing an output stream: records the file's final length, mtime and where its bytes are
 * (inline, or the data object the writer recorded when it spilled), and ends the caller's lease.
 * Only the lease holder may close, and only the file its stream opened, so a late close can never
 * clobber a newer file or a file recovered from under it (LEASE_EXPIRED, as in HDFS).
 */
public final class CompleteOp implements Operation {
  private final OpContext ctx;

  public CompleteOp(OpContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    CompleteRequest req = request.getComplete();
    Writers.checkLength(req.getLength());
    boolean inline = !req.getInlineData().isEmpty() || req.getDataObject().isEmpty();
    if (inline) {
      Writers.checkInlineBytes(ctx, req.getInlineData().size(), req.getLength());
    }
    ctx.ns().mutateLocked(m -> {
      WriteBatch batch = m.batch();
      Writers.Writing w = Writers.requireLease(ctx, m, req.getInodeId(), request.getCaller(), req.getPath(),
          request.getResolution());
      FileLease lease = w.lease();
      Inode file = w.file();
      Inode updated = file.copy();
      updated.flags &= ~Inode.FLAG_UNDER_CONSTRUCTION;
      updated.length = req.getLength();
      updated.mtime = System.currentTimeMillis();
      if (inline) {
        if (file.dataObject != null) {
          throw IndexFsException.invalidArgument(req.getPath() + " already spilled to data object "
              + file.dataObject + "; it cannot be completed inline");
        }
        updated.inlineData = req.getInlineData().toByteArray();
      } else {
        String object = req.getDataObject();
        boolean own = object.equals(file.dataObject)
            || file.dataObject == null && object.equals(lease.spillObject());
        if (!own) {
          throw IndexFsException.invalidArgument("Data object " + object + " does not belong to the writer of "
              + req.getPath());
        }
        updated.inlineData = null;
        updated.dataObject = object;
      }
      Writers.chargeLength(ctx, m, lease.quotaRoots(), file, req.getLength());
      Writers.put(ctx, batch, w, updated);
      ctx.leases().release(batch, file.inodeId);
      return null;
    });
    return Response.newBuilder();
  }
}
