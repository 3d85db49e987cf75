package org.indexfs.server.call;

import java.io.IOException;
import java.util.function.Consumer;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.health.Fence;
import org.indexfs.server.store.GroupCommit;

/**
 * The last stage of a call (DESIGN §10): its answer goes to its reply sink at once when it wrote
 * nothing the reply must wait for (or {@code indexfs.wal.sync=false}); otherwise the WAL syncer
 * sends it right after the fsync that covers the call's durability ticket ({@link Commit}), so no
 * thread waits for the disk. A server that stopped serving acknowledges nothing more, even what it
 * wrote before.
 */
public final class Reply {
  private final GroupCommit groupCommit;
  private final Fence fence;

  public Reply(GroupCommit groupCommit, Fence fence) {
    this.groupCommit = groupCommit;
    this.fence = fence;
  }

  /** Sends {@code answer} to {@code call}'s reply sink once the call's writes are durable. */
  public void send(Call call, Response answer) {
    Consumer<Response> sink = call.replySink();
    Request request = call.request();
    long ticket = call.ticket();
    if (ticket == 0) {
      sink.accept(fence.serving() ? answer : notServing(request));
    } else {
      groupCommit.whenDurable(ticket, call.read(), failure -> sink.accept(!fence.serving() ? notServing(request)
          : failure == null ? answer : notDurable(request, failure)));
    }
  }

  /** Answers a call refused before it ran (admission): nothing of it was written. */
  public void refuse(Call call, Response refusal) {
    call.replySink().accept(refusal);
  }

  /** The answer of a call that arrived while the server does not serve. */
  public Response notServing(Request request) {
    return error(request, Code.NOT_SERVING, fence.refusal().getMessage());
  }

  private static Response notDurable(Request request, IOException failure) {
    Code code = failure instanceof IndexFsException e ? e.code() : Code.INTERNAL_ERROR;
    return error(request, code, "Could not make " + request.getOpCase() + " durable: " + failure.getMessage());
  }

  /** An answer with {@code code} and {@code message} instead of a result. */
  public static Response error(Request request, Code code, String message) {
    return Response.newBuilder().setCallId(request.getCallId()).setCode(code).setMessage(message).build();
  }
}
