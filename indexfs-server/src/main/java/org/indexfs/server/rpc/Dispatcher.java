package org.indexfs.server.rpc;

import java.io.IOException;
import java.net.SocketAddress;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.ResolveElsewhereException;
import org.indexfs.common.rpc.Framing;
import org.indexfs.proto.Code;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.Blocking;
import org.indexfs.server.audit.Auditor;
import org.indexfs.server.call.Call;
import org.indexfs.server.call.Commit;
import org.indexfs.server.call.IoThread;
import org.indexfs.server.call.ReadBatch;
import org.indexfs.server.call.Reply;
import org.indexfs.server.call.OperationTable;
import org.indexfs.server.health.Fence;
import org.indexfs.server.metrics.ServerMetrics;
import org.indexfs.server.ns.Namespace;
import org.indexfs.server.op.Operation;
import org.indexfs.server.security.CallerIdentity;
import org.indexfs.server.security.ConnectionUser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes each request to its {@link Operation} and turns the outcome into a response; it holds no
 * rule of its own. The life of a call (DESIGN §10):
 * <ol>
 *   <li>an operation that never waits runs right here, on the I/O thread that read it; anything
 *       else, or a call that finds it must wait ({@link Blocking}), goes to the handler pool;</li>
 *   <li>admission decides who the call is from; the call's state is one {@link Call};</li>
 *   <li>the operation applies its batch without waiting for the fsync ({@link Commit});</li>
 *   <li>the reply is sent at once when nothing was written (or {@code wal.sync=false}), otherwise
 *       by the WAL syncer right after the fsync that covers it ({@link Reply}).</li>
 * </ol>
 */
public final class Dispatcher implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);

  private final Map<Request.OpCase, Operation> operations;
  private final ThreadPoolExecutor handlers;
  private final Auditor auditor;
  private final ServerMetrics metrics;
  private final Namespace ns;
  private final int maxFrameBytes;
  private final String target;
  private final Fence fence;
  private final Reply replies;
  private final CallerIdentity identity;
  /** What the operations' I/O-thread rules ask of this server. */
  private final IoThread.Server server;
  /** Internal errors: logged with their stack traces, at a bounded rate (a client can cause them). */
  private final BadInputLog failures = new BadInputLog(LOG);

  /**
   * {@code target}: {@code <cluster>/<slot>}, what clients name in the calls meant for this server;
   * {@code fence}: while closed, no call is answered but with NOT_SERVING; {@code slotCount}: the
   * cluster's slots now.
   */
  public Dispatcher(Map<Request.OpCase, Operation> operations, int threads, int queueSize, Auditor auditor,
      ServerMetrics metrics, Namespace ns, int maxFrameBytes, String target, Fence fence,
      CallerIdentity identity, IntSupplier slotCount) {
    this.server = new IoThread.Server() {
      @Override
      public int slotCount() {
        return slotCount.getAsInt();
      }

      @Override
      public boolean syncsCommits() {
        return ns.groupCommit().syncs();
      }
    };
    this.target = target;
    this.fence = fence;
    this.replies = new Reply(ns.groupCommit(), fence);
    this.identity = identity;
    this.operations = new EnumMap<>(operations);
    this.auditor = auditor;
    this.metrics = metrics;
    this.ns = ns;
    this.maxFrameBytes = maxFrameBytes;
    this.handlers = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS,
        new ArrayBlockingQueue<>(queueSize), r -> {
          Thread t = new Thread(r, "indexfs-handler");
          t.setDaemon(true);
          return t;
        });
  }

  /**
   * Runs {@code request}, a call from {@code remote} on a connection that authenticated as {@code
   * authenticated} (the short name of its Kerberos principal or token owner; null on a connection
   * without authentication), read in {@code read}; hands its response to {@code reply} (possibly
   * later, on another thread). Called on an I/O thread.
   */
  public void dispatch(Request request, SocketAddress remote, ConnectionUser authenticated, ReadBatch read,
      Consumer<Response> reply) {
    Operation op = operations.get(request.getOpCase());
    if (op == null) {
      reply.accept(error(request, Code.BAD_REQUEST, "Unknown or missing operation in call " + request.getCallId()));
      return;
    }
    if (!request.getTarget().isEmpty() && !request.getTarget().equals(target)) {
      reply.accept(error(request, Code.WRONG_SERVER, "This server serves " + target + ", not " + request.getTarget()));
      return;
    }
    if (!fence.serving()) {
      reply.accept(replies.notServing(request));
      return;
    }
    long queued = System.nanoTime();
    if (OperationTable.traits(request.getOpCase()).ioThread().allows(request, server)) {
      try {
        execute(op, new Call(request, remote, reply, read), authenticated, queued);
        return;
      } catch (Blocking.MustNotBlock e) {
        // Nothing was changed yet: start over on a handler thread, as a new call.
      }
    }
    try {
      handlers.execute(() -> execute(op, new Call(request, remote, reply, null), authenticated, queued));
    } catch (RejectedExecutionException e) {
      reply.accept(error(request, Code.SERVER_BUSY, "Server is overloaded; retry later"));
    }
  }

  /** The calling I/O thread starts dispatching the calls of one read (see {@link #readComplete}). */
  public void readStarted(ReadBatch read) {
    ns.groupCommit().readStarted(read);
  }

  /**
   * The read's calls are dispatched: their answer records are written in one batch, and one WAL
   * sync may now cover every write they made (DESIGN §10).
   * Must follow every {@link #readStarted} of the same read.
   */
  public void readComplete(ReadBatch read) {
    Commit.readComplete(read, ns);
  }

  /** The stages of one call, in order: admit, run (guards, retry, operation, commit), audit, reply. */
  private void execute(Operation op, Call call, ConnectionUser authenticated, long queued) {
    call.enter();
    try {
      if (!admit(call, authenticated)) {
        return;
      }
      Request request = call.request();
      Response response;
      try {
        response = runAudited(op, call, queued);
      } catch (Blocking.MustNotBlock e) {
        if (call.ticket() > 0) {
          // An operation that waits after changing something must not claim the I/O thread.
          failures.failure(request.getOpCase() + " waited on an I/O thread after its change; answering with an error", e);
          response = error(request, Code.INTERNAL_ERROR, request.getOpCase() + " failed: it must not run on an I/O thread");
        } else {
          throw e;
        }
      } catch (RuntimeException | LinkageError e) {
        // Never leave a caller waiting for its timeout: whatever broke, it gets an answer.
        failures.failure(request.getOpCase() + " failed for call " + request.getCallId() + " outside the operation", e);
        response = error(request, Code.INTERNAL_ERROR, request.getOpCase() + " failed: " + e);
      }
      replies.send(call, fitting(request, response));
    } finally {
      call.exit();
    }
  }

  /**
   * Who the call is from is decided here, once, before any operation sees it (DESIGN §14); a
   * refused call is answered here. A trusted gateway's call is from the client it names (audit
   * log, messages), as in HDFS.
   */
  private boolean admit(Call call, ConnectionUser authenticated) {
    Request claimed = call.request();
    try {
      SocketAddress remote = call.address();
      Request request = claimed.toBuilder().setCaller(identity.admit(claimed.getCaller(), authenticated, remote)).build();
      // Calls between servers (DESIGN §7), and forms of client calls only servers send (a snapshot's
      // barrier, a publish's phases): a client sending one could hold every gate or act as another holder.
      if (OperationTable.traits(claimed.getOpCase()).serverOnly().test(claimed)) {
        identity.requireServer(request.getCaller(), authenticated);
      }
      call.admitted(request, CallerIdentity.addressOf(request.getCaller(), remote));
      return true;
    } catch (IndexFsException refused) {
      replies.refuse(call, error(claimed, refused.code(), refused.getMessage()));
      return false;
    }
  }

  private Response fitting(Request request, Response response) {
    if (response.getSerializedSize() + Framing.LENGTH_BYTES > maxFrameBytes) {
      failures.failure("Reply to call " + request.getCallId() + " (" + request.getOpCase() + ") is "
          + response.getSerializedSize() + " bytes, over the frame limit", null);
      return error(request, Code.INTERNAL_ERROR, "Reply exceeds indexfs.rpc.max-frame-bytes");
    }
    return response;
  }

  private Response runAudited(Operation op, Call call, long queued) {
    Request request = call.request();
    long started = System.nanoTime();
    String before = auditor.beforeApply(request);
    Response response;
    call.applying(true);
    try {
      response = run(op, call);
    } finally {
      call.applying(false);
    }
    metrics.served(request.getOpCase(), response.getCode(), started - queued, System.nanoTime() - started);
    auditor.record(call, response, before);
    return response;
  }

  private Response run(Operation op, Call call) {
    Request request = call.request();
    try {
      return op.apply(call).setCallId(request.getCallId()).setCode(Code.OK).build();
    } catch (ResolveElsewhereException e) {
      return error(request, e.code(), e.getMessage()).toBuilder()
          .setResolved(e.resolution()).setResolvedDst(e.destination()).build();
    } catch (IndexFsException e) {
      return error(request, e.code(), e.getMessage());
    } catch (Blocking.MustNotBlock e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      failures.failure(request.getOpCase() + " failed for call " + request.getCallId(), e);
      return error(request, Code.INTERNAL_ERROR, request.getOpCase() + " failed: " + e);
    }
  }

  static Response error(Request request, Code code, String message) {
    return Reply.error(request, code, message);
  }

  @Override
  public void close() {
    handlers.shutdown();
    try {
      if (!handlers.awaitTermination(30, TimeUnit.SECONDS)) {
        handlers.shutdownNow();
      }
    } catch (InterruptedException e) {
      handlers.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
