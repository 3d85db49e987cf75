package org.indexfs.server.op;

import com.google.protobuf.ByteString;
import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.ObjectNames;
import org.indexfs.common.Permission;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Code;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.proto.WriteHandle;
import org.indexfs.server.filelease.FileLease;
import org.indexfs.server.filelease.LeaseRecovery;
import org.indexfs.server.ns.OwnStoragePolicy;
import org.indexfs.server.ns.ResolvedPath;

/**
 * {@code append} (HDFS FSDirAppendOp): WRITE on the file; the caller becomes its single writer.
 * A file another live client is writing answers ALREADY_BEING_CREATED; one whose writer passed the
 * soft limit is recovered first (an inline file at once, an object file asynchronously:
 * RECOVERY_IN_PROGRESS until then). The writer gets the inline bytes to continue from, or appends
 * to the file's data object; an inline file that outgrows the limit spills to a fresh object name.
 */
public final class AppendOp implements Operation {
  private final OpContext ctx;

  public AppendOp(OpContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    String path = request.getAppend().getPath();
    String holder = Writers.holder(request.getCaller());
    Writers.Outcome<WriteHandle> outcome = ctx.ns().mutateLocked(m -> {
      m.exclusive();
      org.rocksdb.WriteBatch batch = m.batch();
      ResolvedPath p = ctx.resolver().resolve(request.getResolution(), path);
      ctx.access().checkTraverse(request.getCaller(), p);
      Inode file = p.last();
      if (file == null) {
        throw new IndexFsException(Code.FILE_NOT_FOUND, "Failed to append to non-existent file " + path
            + " for client " + holder);
      }
      if (file.isDirectory()) {
        throw new IndexFsException(Code.IS_DIRECTORY, "Path is not a file: " + path);
      }
      ctx.access().checkSelf(request.getCaller(), p, Permission.WRITE);
      LeaseRecovery.Preempted preempted = ctx.recovery().preempt(batch, p.parent().inodeId, p.lastName(), file,
          holder, path, "APPEND_FILE");
      if (preempted.recovering()) {
        return Writers.Outcome.failed(new IndexFsException(Code.RECOVERY_IN_PROGRESS, "Failed to APPEND_FILE "
            + path + " for " + holder + " because lease recovery is in progress. Try again later."));
      }
      Inode open = preempted.file().copy();
      // HDFS reopens the last block for writing at its full preferred size (FSDirAppendOp): check that.
      Writers.chargeLength(ctx, m, org.indexfs.server.quota.QuotaRoot.above(p, p.depth()), open, open.length);
      open.flags |= Inode.FLAG_UNDER_CONSTRUCTION;
      Entries.put(ctx.ns(), batch, p, p.depth(), open);
      // An inline file may spill; it gets a name never used before (ObjectNames).
      String spill = open.dataObject == null ? ObjectNames.fresh(ctx.ns().slot()) : "";
      ctx.leases().grant(batch, new FileLease(open.inodeId, holder, p.parent().inodeId, p.lastName(), spill,
          org.indexfs.server.quota.QuotaRoot.above(p, p.depth())));
      WriteHandle.Builder handle = WriteHandle.newBuilder()
          .setStatus(ctx.ns().toStatus(p.lastName(), open))
          .setSpillObject(spill);
      if (!spill.isEmpty()) {
        // As at create: the ancestors' policy; the file's own reaches the object once it is recorded
        // (ObjectAttributes), as an HDFS file's first block was placed before its own policy was set.
        handle.setSpillPolicy(OwnStoragePolicy.inherited(ctx.ns().attrs(), p, request.getResolution().getAncestorsList()));
      }
      if (open.inlineData != null) {
        handle.setInlineData(ByteString.copyFrom(open.inlineData));
      }
      return Writers.Outcome.of(handle.build());
    });
    if (outcome.error() != null) {
      ctx.reclaimer().wake();
    }
    return Response.newBuilder().setWriteHandle(outcome.get());
  }
}
