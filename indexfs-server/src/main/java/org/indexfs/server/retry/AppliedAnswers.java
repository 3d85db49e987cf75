package org.indexfs.server.retry;

import com.google.protobuf.ByteString;
import java.io.IOException;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.BoolResult;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.proto.WriteHandle;
import org.indexfs.server.filelease.FileLease;
import org.indexfs.server.filelease.LeaseTable;
import org.indexfs.server.ns.OwnStoragePolicy;
import org.indexfs.server.ns.ResolvedPath;
import org.indexfs.server.op.CrossSlotRename;
import org.indexfs.server.op.OpContext;

/**
 * The answer to a retried call whose first batch is known to have been applied but whose answer
 * was never recorded (the server stopped in between): read from the namespace as the first try
 * left it. When the namespace shows the call did not take effect after all (its batch only started
 * a lease recovery, say, or a cross-slot rename rolled back), the answer is null and the call runs
 * again.
 */
public final class AppliedAnswers {
  private final OpContext ctx;
  private final CrossSlotRename crossSlot;
  private final Landed publishes;

  /** A publish whose mark says it landed: its answer, after the lease step its first try may have missed. */
  @FunctionalInterface
  public interface Landed {
    Response.Builder answer(Request request, Response first) throws IOException;
  }

  public AppliedAnswers(OpContext ctx, CrossSlotRename crossSlot, Landed publishes) {
    this.ctx = ctx;
    this.crossSlot = crossSlot;
    this.publishes = publishes;
  }

  Response.Builder answer(Request request, CallKey key) throws IOException {
    String holder = request.getCaller().getClientId();
    return switch (request.getOpCase()) {
      case MKDIRS -> {
        Inode dir = last(request, request.getMkdirs().getPath());
        yield dir != null && dir.isDirectory() ? bool(true) : null;
      }
      case DELETE -> last(request, request.getDelete().getPath()) == null ? bool(true) : null;
      case CREATE -> {
        ResolvedPath p = resolved(request, request.getCreate().getPath());
        Inode file = p.last();
        // The first answer's object name and policy, so the retried writer can still spill.
        yield writtenBy(file, holder)
            ? Response.newBuilder().setStatus(ctx.ns().toStatus(name(request.getCreate().getPath()), file).toBuilder()
                .setSpillObject(ctx.leases().get(file.inodeId).spillObject())
                .setSpillPolicy(OwnStoragePolicy.inherited(ctx.ns().attrs(), p, request.getResolution().getAncestorsList())))
            : null;
      }
      case APPEND -> {
        Inode file = last(request, request.getAppend().getPath());
        if (!writtenBy(file, holder)) {
          yield null;
        }
        WriteHandle.Builder handle = WriteHandle.newBuilder()
            .setStatus(ctx.ns().toStatus(name(request.getAppend().getPath()), file))
            .setSpillObject(ctx.leases().get(file.inodeId).spillObject());
        if (file.inlineData != null) {
          handle.setInlineData(ByteString.copyFrom(file.inlineData));
        }
        yield Response.newBuilder().setWriteHandle(handle);
      }
      case COMPLETE -> {
        Inode file = last(request, request.getComplete().getPath());
        yield file != null && file.inodeId == request.getComplete().getInodeId() && !file.isUnderConstruction()
            ? Response.newBuilder() : null;
      }
      case TRUNCATE -> {
        Inode file = last(request, request.getTruncate().getPath());
        if (file == null) {
          yield null;
        }
        FileLease lease = ctx.leases().get(file.inodeId);
        if (file.isUnderConstruction() && lease != null && lease.holder().equals(LeaseTable.RECOVERY_HOLDER)) {
          yield bool(false); // the data tier is still settling the last block, as the first answer said
        }
        yield !file.isUnderConstruction() && file.length == request.getTruncate().getNewLength() ? bool(true) : null;
      }
      case CONCAT -> {
        for (String src : request.getConcat().getSourcesList()) {
          if (last(request, src) != null) {
            yield null;
          }
        }
        yield Response.newBuilder();
      }
      case RENAME -> {
        // A cross-slot rename still open is settled now; one that rolled back runs again.
        Boolean landed = crossSlot.settleNow(key::ownsTxid);
        yield landed != null ? (landed ? bool(true) : null) : settledMeanwhile(key);
      }
      case PUBLISH -> {
        // Its mark carries its answer (written with the intent or the decision, or alone when
        // nothing is ingested): recovery forgot the mark if it undid the intent, so a mark found
        // here is a publish that landed. A plain mark (none of those) runs it again.
        byte[] stored = ctx.ns().store().get(ctx.ns().store().calls(), key.encode());
        Response first = stored == null ? null : CallRecord.decode(stored).landedAnswer();
        yield first == null ? null : publishes.answer(request, first);
      }
      default -> null;
    };
  }

  /**
   * A rename with no open transaction: done in the batch that carried its mark (within this slot),
   * or settled since the retry looked — by the background settling, which replaces the mark in the
   * same batch that closes the transaction: with the answer when it landed, with nothing when it
   * rolled back (then it runs again). Reading the mark again closes that race.
   */
  private Response.Builder settledMeanwhile(CallKey key) throws IOException {
    byte[] stored = ctx.ns().store().get(ctx.ns().store().calls(), key.encode());
    if (stored == null) {
      return null;
    }
    CallRecord record = CallRecord.decode(stored);
    if (record.appliedOnly()) {
      return bool(true);
    }
    if (record.answer().getCode() != org.indexfs.proto.Code.OK) {
      throw new org.indexfs.common.IndexFsException(record.answer().getCode(), record.answer().getMessage());
    }
    return record.answer().toBuilder();
  }

  /** True when {@code file} is open for writing by {@code holder}: a create or append of its own took effect. */
  private boolean writtenBy(Inode file, String holder) {
    if (file == null || file.isDirectory() || !file.isUnderConstruction()) {
      return false;
    }
    FileLease lease = ctx.leases().get(file.inodeId);
    return lease != null && lease.holder().equals(holder);
  }

  private Inode last(Request request, String path) throws IOException {
    return resolved(request, path).last();
  }

  private ResolvedPath resolved(Request request, String path) throws IOException {
    return ctx.ns().read(none -> ctx.resolver().resolve(request.getResolution(), path));
  }

  private static String name(String path) {
    String trimmed = path.endsWith("/") && path.length() > 1 ? path.substring(0, path.length() - 1) : path;
    return trimmed.substring(trimmed.lastIndexOf('/') + 1);
  }

  private static Response.Builder bool(boolean value) {
    return Response.newBuilder().setBool(BoolResult.newBuilder().setValue(value));
  }
}
