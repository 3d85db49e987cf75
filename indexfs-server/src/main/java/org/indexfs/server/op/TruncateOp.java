package org.indexfs.server.op;

import java.io.IOException;
import java.util.Arrays;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.Permission;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.BoolResult;
import org.indexfs.proto.Code;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.proto.TruncateRequest;
import org.indexfs.server.filelease.FileLease;
import org.indexfs.server.filelease.LeaseRecovery;
import org.indexfs.server.filelease.LeaseTable;
import org.indexfs.server.ns.ResolvedPath;

/**
 * {@code truncate} (HDFS FSDirTruncateOp): WRITE on a closed file; only shrinks. An inline file
 * is cut in its entry at once, and answers as HDFS would (true on a block boundary, false
 * mid-block). An object file is held open by the server (lease {@link LeaseTable#RECOVERY_HOLDER})
 * while the data tier truncates the object, and answers what the data tier answered: true when
 * that is done at once (a block boundary), false while it recovers the last block, after which the
 * lease monitor closes the file, as HDFS does. If the server dies in between, recovery
 * closes the file at whatever length the object has: truncated or not, never half.
 */
public final class TruncateOp implements Operation {
  private final OpContext ctx;

  public TruncateOp(OpContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    TruncateRequest req = request.getTruncate();
    String path = req.getPath();
    long newLength = req.getNewLength();
    if (newLength < 0) {
      throw IndexFsException.invalidArgument("Cannot truncate to a negative file size: " + newLength + ".");
    }
    String caller = Writers.holder(request.getCaller());
    boolean[] onBoundary = {true};
    Writers.Outcome<Inode> outcome = ctx.ns().mutate(batch -> {
      ResolvedPath p = ctx.resolver().resolve(request.getResolution(), path);
      ctx.access().checkTraverse(request.getCaller(), p);
      Inode file = p.last();
      if (file == null) {
        throw IndexFsException.notFound(path);
      }
      if (file.isDirectory()) {
        throw new IndexFsException(Code.IS_DIRECTORY, "Path is not a file: " + path);
      }
      ctx.access().checkSelf(request.getCaller(), p, Permission.WRITE);
      LeaseRecovery.Preempted preempted = ctx.recovery().preempt(batch, p.parent().inodeId, p.lastName(), file,
          caller, path, "TRUNCATE_FILE");
      if (preempted.recovering()) {
        return Writers.Outcome.failed(new IndexFsException(Code.RECOVERY_IN_PROGRESS, "Failed to TRUNCATE_FILE "
            + path + " for " + caller + " because lease recovery is in progress. Try again later."));
      }
      file = preempted.file();
      if (newLength > file.length) {
        throw IndexFsException.invalidArgument("Cannot truncate to a larger file size. Current size: "
            + file.length + ", truncate size: " + newLength + ".");
      }
      if (newLength == file.length) {
        return Writers.Outcome.of(null);
      }
      // HDFS answers true only when no block is left to recover: a cut on a block boundary.
      onBoundary[0] = file.blockSize > 0 && newLength % file.blockSize == 0;
      Inode updated = file.copy();
      updated.mtime = System.currentTimeMillis();
      // The quotas above lose the cut bytes now (for an object file: what the data tier will leave).
      ctx.quotas().credit(batch, org.indexfs.server.quota.QuotaRoot.above(p, p.depth()), 0,
          (newLength - file.length) * file.replication);
      if (file.dataObject == null) {
        updated.inlineData = Arrays.copyOf(file.inlineData == null ? new byte[0] : file.inlineData, (int) newLength);
        updated.length = newLength;
        Entries.put(ctx.ns(), batch, p, p.depth(), updated);
        return Writers.Outcome.of(null);
      }
      updated.flags |= Inode.FLAG_UNDER_CONSTRUCTION;
      Entries.put(ctx.ns(), batch, p, p.depth(), updated);
      ctx.leases().put(batch, new FileLease(file.inodeId, LeaseTable.RECOVERY_HOLDER, p.parent().inodeId,
          p.lastName(), ""));
      return Writers.Outcome.of(updated);
    });
    Inode truncating = outcome.get();
    // An inline file is cut already; it answers as HDFS would for its length (false mid-block,
    // when HDFS would still be recovering the last block), so scripts and `-truncate -w` read the same.
    boolean done = onBoundary[0];
    if (truncating != null) {
      try {
        // The data tier's own answer: false while it recovers the object's last block.
        done = ctx.data().truncate(truncating.dataObject, newLength);
      } finally {
        // Closes the file at the object's length once the data tier has settled it; if the
        // truncate failed, that is the old length and the file is unchanged.
        ctx.recovery().advance(truncating.inodeId);
      }
    }
    return Response.newBuilder().setBool(BoolResult.newBuilder().setValue(done));
  }
}
