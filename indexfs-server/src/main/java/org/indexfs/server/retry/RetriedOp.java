package org.indexfs.server.retry;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.Request;
import org.indexfs.proto.Request.OpCase;
import org.indexfs.proto.Response;
import org.indexfs.server.Blocking;
import org.indexfs.server.call.Call;
import org.indexfs.server.call.OperationTable;
import org.indexfs.server.call.When;
import org.indexfs.server.op.Operation;

/**
 * An at-most-once call (DESIGN §11): answered from the {@link RetryCache} when it is a retry of a
 * call already answered, made to wait when it duplicates one still running, answered from the
 * namespace when only its first batch is known to have been applied, and otherwise run, marked and
 * recorded. Outermost of an operation's wrappers, so a retry gets its first answer even if, say,
 * safe mode began since.
 */
public final class RetriedOp implements Operation {
  private final Operation op;
  private final When atMostOnce;
  private final RetryCache cache;
  private final AppliedAnswers applied;

  private RetriedOp(Operation op, When atMostOnce, RetryCache cache, AppliedAnswers applied) {
    this.op = op;
    this.atMostOnce = atMostOnce;
    this.cache = cache;
    this.applied = applied;
  }

  /** Wraps every at-most-once operation of {@code ops} ({@link OperationTable}). */
  public static void install(Map<OpCase, Operation> ops, RetryCache cache, AppliedAnswers applied) {
    ops.replaceAll((c, plain) -> {
      When atMostOnce = OperationTable.traits(c).atMostOnce();
      return atMostOnce.possible() ? new RetriedOp(plain, atMostOnce, cache, applied) : plain;
    });
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    return apply(Call.detached(request));
  }

  @Override
  public Response.Builder apply(Call call) throws IOException {
    Request request = call.request();
    CallKey key = atMostOnce.test(request) ? CallKey.of(request) : null;
    if (key == null) {
      return op.apply(call);
    }
    while (true) {
      RetryCache.Lookup found = cache.begin(key);
      if (found instanceof RetryCache.Answered a) {
        return replay(a.answer());
      }
      if (found instanceof RetryCache.Running r) {
        Blocking.check("wait for the first try of a retried call");
        try {
          return replay(r.answer().get());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("Interrupted waiting for the first try of call " + key.callId());
        } catch (ExecutionException released) {
          continue; // its first try moved to another thread: look again
        }
      }
      return run(call, key, found instanceof RetryCache.Applied);
    }
  }

  private Response.Builder run(Call call, CallKey key, boolean wasApplied) throws IOException {
    Request request = call.request();
    Response.Builder answer;
    try {
      answer = wasApplied ? applied.answer(request, key) : null;
      if (answer == null) {
        cache.markApplied(key);
        answer = op.apply(call);
        org.indexfs.server.FaultPoints.at("call.applied");
      }
    } catch (Blocking.MustNotBlock moved) {
      cache.release(key);
      throw moved;
    } catch (IndexFsException e) {
      cache.finish(key, Response.newBuilder().setCode(e.code()).setMessage(e.getMessage()).build());
      throw e;
    } catch (IOException | RuntimeException e) {
      cache.finish(key, Response.newBuilder().setCode(Code.INTERNAL_ERROR).setMessage(String.valueOf(e)).build());
      throw e;
    }
    cache.finish(key, answer.build());
    return answer;
  }

  private static Response.Builder replay(Response answer) throws IndexFsException {
    if (answer.getCode() != Code.OK) {
      throw new IndexFsException(answer.getCode(), answer.getMessage());
    }
    return answer.toBuilder();
  }
}
