package org.indexfs.client;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.ToLongFunction;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.rpc.RpcConnection;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;

/**
 * The failover loop (DESIGN §11): sends one call to one slot's server and returns its answer,
 * riding through a broken connection, a server that does not serve the slot right now, or one too
 * busy — retried with backoff, the address looked up in ZooKeeper again — for up to
 * {@code failoverWaitMs}. Every try of a call carries the same call id, so a mutation whose answer
 * was lost is answered from the server's retry cache instead of running twice. Where the call goes
 * is {@link PathRouter}'s business.
 */
final class FailoverSender {
  /** No reply within the timeout: the server has the call, its outcome is not known here. */
  static final class ReplyOverdue extends IOException {
    ReplyOverdue(String message) {
      super(message);
    }
  }

  private final ClusterConnection cluster;
  private final Caller caller;
  private final long timeoutMs;
  private final long failoverWaitMs;
  private final RpcCounters counters;
  /** Tests: the call id the next call of this thread carries (a retry of an earlier call, made by hand). */
  private final ThreadLocal<Long> reuseCallId = new ThreadLocal<>();
  /** Set by {@link #namingCalls}: how this client's calls are named for the servers' retry caches. */
  private volatile ByteString rpcClientId;
  private volatile ToLongFunction<Request.OpCase> callIds;

  FailoverSender(ClusterConnection cluster, Caller caller, long timeoutMs, long failoverWaitMs, RpcCounters counters) {
    this.cluster = cluster;
    this.caller = caller;
    this.timeoutMs = timeoutMs;
    this.failoverWaitMs = failoverWaitMs;
    this.counters = counters;
  }

  /** See {@link IndexFsClient#namingCalls}. */
  void namingCalls(ByteString rpcClientId, ToLongFunction<Request.OpCase> callIds) {
    this.rpcClientId = rpcClientId;
    this.callIds = callIds;
  }

  /** Tests only: the next call of this thread goes out with {@code callId}, as a retry of that call would. */
  void reuseCallId(long callId) {
    reuseCallId.set(callId);
  }

  long nextCallId(Request.Builder request) {
    Long reused = reuseCallId.get();
    reuseCallId.remove();
    if (reused != null) {
      return reused;
    }
    ToLongFunction<Request.OpCase> named = callIds;
    return named != null ? named.applyAsLong(request.getOpCase()) : RpcConnection.newCallId();
  }

  /** {@link #send}, with an error answer thrown as {@link IndexFsException}. */
  Response call(int slot, Request.Builder request) throws IOException {
    return check(send(slot, request));
  }

  /** The answer of {@code slot}'s server to {@code request}, whatever its code, after riding through failovers. */
  Response send(int slot, Request.Builder request) throws IOException {
    ByteString named = rpcClientId;
    request.setCaller(caller).setTarget(cluster.target(slot)).setRpcClientId(named != null ? named : cluster.rpcClientId());
    if (request.getCallId() == 0) {
      request.setCallId(nextCallId(request));
    }
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(failoverWaitMs);
    for (int attempt = 0; ; attempt++) {
      IOException failed;
      try {
        Response response = sendOnce(slot, request);
        Code code = response.getCode();
        if (code == Code.WRONG_SERVER || code == Code.NOT_SERVING) {
          // The address this process remembered for the slot is not its server now: ask ZooKeeper.
          cluster.unreachable(slot);
          if (code == Code.WRONG_SERVER && attempt == 0) {
            continue;
          }
        } else if (code != Code.SERVER_BUSY) {
          return response;
        }
        failed = new IndexFsException(code, response.getMessage());
      } catch (InterruptedIOException e) {
        throw e;
      } catch (IOException e) {
        if (refused(e)) {
          throw e;
        }
        cluster.unreachable(slot);
        failed = e;
      }
      if (System.nanoTime() > deadline) {
        throw failed;
      }
      counters.count("retry");
      retryBackoff(attempt);
    }
  }

  static Response check(Response response) throws IndexFsException {
    if (response.getCode() != Code.OK) {
      throw new IndexFsException(response.getCode(), response.getMessage());
    }
    return response;
  }

  /**
   * A server's answer while connecting (an authentication it refused) or a failed SASL exchange:
   * trying again would only meet the same refusal, so it reaches the caller at once.
   */
  static boolean refused(IOException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof IndexFsException x && !passing(x.code()) || t instanceof javax.security.sasl.SaslException) {
        return true;
      }
    }
    return false;
  }

  /** Answers of a slot that is changing hands or overloaded: retried, never the application's. */
  static boolean passing(Code code) {
    return code == Code.NOT_SERVING || code == Code.WRONG_SERVER || code == Code.SERVER_BUSY;
  }

  private static void retryBackoff(int attempt) throws InterruptedIOException {
    try {
      Thread.sleep(Math.min(2_000, 50L << Math.min(attempt, 6)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted while waiting to retry");
    }
  }

  private Response sendOnce(int slot, Request.Builder request) throws IOException {
    counters.count(request.getOpCase());
    // Listing pages spread over the connections' lanes; every other call keeps to one.
    RpcConnection conn = cluster.connection(slot, request.getOpCase() == Request.OpCase.LIST_STATUS);
    CompletableFuture<Response> future = conn.call(request);
    try {
      return future.get(timeoutMs, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      conn.abandon(request.getCallId());
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted waiting for " + request.getOpCase());
    } catch (TimeoutException e) {
      conn.abandon(request.getCallId());
      throw new ReplyOverdue(request.getOpCase() + " timed out after " + timeoutMs + " ms at " + conn.address());
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      throw cause instanceof IOException io ? io : new IOException(cause);
    }
  }
}
