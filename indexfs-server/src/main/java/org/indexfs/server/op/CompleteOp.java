package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Code;
import org.indexfs.proto.CompleteRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.ns.ResolvedPath;

/**
 * Closing an output stream: records the file's final length, mtime and where its bytes are
 * (inline, or a data object the client wrote). Refuses if the path no longer names the file the
 * stream created, so a late close can never clobber a newer file.
 */
public final class CompleteOp implements Operation {
  private final OpContext ctx;

  public CompleteOp(OpContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    CompleteRequest req = request.getComplete();
    boolean inline = !req.getInlineData().isEmpty() || req.getDataObject().isEmpty();
    if (inline && req.getInlineData().size() != req.getLength()) {
      throw IndexFsException.invalidArgument("Inline data of " + req.getInlineData().size()
          + " bytes does not match length " + req.getLength());
    }
    if (inline && req.getLength() > ctx.inlineMaxBytes()) {
      throw IndexFsException.invalidArgument("Inline data of " + req.getLength()
          + " bytes exceeds indexfs.inline.max-bytes=" + ctx.inlineMaxBytes());
    }
    ctx.ns().mutate(batch -> {
      ResolvedPath p = ctx.resolver().resolve(req.getPath());
      Inode file = p.last();
      if (file == null || file.isDirectory() || file.inodeId != req.getInodeId()) {
        throw new IndexFsException(Code.FILE_NOT_FOUND, "File " + req.getPath()
            + " was deleted, renamed or replaced while it was being written (inode " + req.getInodeId() + ")");
      }
      Inode updated = file.copy();
      updated.flags &= ~Inode.FLAG_UNDER_CONSTRUCTION;
      updated.length = req.getLength();
      updated.mtime = System.currentTimeMillis();
      if (updated.dataObject != null && !updated.dataObject.equals(req.getDataObject())) {
        ctx.reclaimer().reclaimObject(batch, updated.dataObject);
      }
      updated.inlineData = inline ? req.getInlineData().toByteArray() : null;
      updated.dataObject = inline ? null : req.getDataObject();
      Entries.put(ctx.ns(), batch, p, p.depth(), updated);
      return null;
    });
    return Response.newBuilder();
  }
}
