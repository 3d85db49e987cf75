package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.FlushRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.filelease.FileLease;
import org.rocksdb.WriteBatch;

/**
 * A writer's state, recorded while the file stays open:
 * <ul>
 *   <li>hflush/hsync of an inline file writes its bytes through to the entry, so new readers see
 *       them (HDFS: hflushed data is visible to new readers);</li>
 *   <li>a spill records the data object the writer has just created and hflushed (holding every
 *       byte so far), so from now on readers and recovery find the bytes there.</li>
 * </ul>
 * Only the lease holder may flush. {@code sync} makes the record durable even with
 * {@code indexfs.wal.sync=false}, as hsync promises.
 */
public final class FlushOp implements Operation {
  private final OpContext ctx;

  public FlushOp(OpContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    FlushRequest req = request.getFlush();
    Writers.checkLength(req.getLength());
    boolean inline = req.getDataObject().isEmpty();
    if (inline) {
      Writers.checkInlineBytes(ctx, req.getInlineData().size(), req.getLength());
    }
    Inode[] spilled = {null};
    ctx.ns().mutateLocked(m -> {
      spilled[0] = null;
      WriteBatch batch = m.batch();
      Writers.Writing w = Writers.requireLease(ctx, m, req.getInodeId(), request.getCaller(), req.getPath(),
          request.getResolution());
      if (req.getSync()) {
        m.noteDurability(null); // hsync asks for durability, whatever the subtree's policy (issue 18)
      }
      FileLease lease = w.lease();
      Inode file = w.file();
      Inode updated = file.copy();
      updated.length = req.getLength();
      if (inline) {
        if (file.dataObject != null) {
          throw IndexFsException.invalidArgument(req.getPath() + " already spilled to data object " + file.dataObject);
        }
        updated.inlineData = req.getInlineData().toByteArray();
      } else if (req.getDataObject().equals(file.dataObject)) {
        updated.length = Math.max(file.length, req.getLength());
      } else if (file.dataObject == null && req.getDataObject().equals(lease.spillObject())) {
        updated.inlineData = null;
        updated.dataObject = lease.spillObject();
        spilled[0] = updated;
      } else {
        throw IndexFsException.invalidArgument("Data object " + req.getDataObject()
            + " does not belong to the writer of " + req.getPath());
      }
      Writers.chargeLength(ctx, m, lease.quotaRoots(), file, updated.length);
      Writers.put(ctx, batch, w, updated);
      return null;
    });
    if (spilled[0] != null) {
      // The writer made the object as its own, 0600: from now on it is the file's (DESIGN §14).
      ObjectAttributes.follow(ctx, spilled[0].dataObject, spilled[0]);
    }
    if (req.getSync() && !ctx.ns().groupCommit().syncs()) {
      // hsync with wal.sync=false: this write must be durable anyway (with wal.sync=true it is).
      ctx.ns().store().syncWal();
    }
    return Response.newBuilder();
  }
}
