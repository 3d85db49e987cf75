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
import org.indexfs.common.IndexFsException;
import org.indexfs.common.ResolveElsewhereException;
import org.indexfs.proto.Code;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.audit.Auditor;
import org.indexfs.server.metrics.ServerMetrics;
import org.indexfs.server.op.Operation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes each request to its {@link Operation} on a bounded handler pool and turns the outcome
 * into a response. It only dispatches: every rule lives in the operation classes.
 */
public final class Dispatcher implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);

  private final Map<Request.OpCase, Operation> operations;
  private final ThreadPoolExecutor handlers;
  private final Auditor auditor;
  private final ServerMetrics metrics;

  public Dispatcher(Map<Request.OpCase, Operation> operations, int threads, int queueSize, Auditor auditor,
      ServerMetrics metrics) {
    this.operations = new EnumMap<>(operations);
    this.auditor = auditor;
    this.metrics = metrics;
    this.handlers = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS,
        new ArrayBlockingQueue<>(queueSize), r -> {
          Thread t = new Thread(r, "indexfs-handler");
          t.setDaemon(true);
          return t;
        });
  }

  /**
   * Runs {@code request}, a call from {@code remote} (the audit log's {@code ip=}), and hands its
   * response to {@code reply} (possibly on another thread).
   */
  public void submit(Request request, SocketAddress remote, Consumer<Response> reply) {
    Operation op = operations.get(request.getOpCase());
    if (op == null) {
      reply.accept(error(request, Code.BAD_REQUEST, "Unknown or missing operation in call " + request.getCallId()));
      return;
    }
    if (request.getCaller().getUser().isEmpty()) {
      reply.accept(error(request, Code.BAD_REQUEST, "Request carries no caller identity"));
      return;
    }
    try {
      handlers.execute(() -> {
        Response response;
        try {
          response = runAudited(op, request, remote);
        } catch (RuntimeException | LinkageError e) {
          // Never leave a caller waiting for its timeout: whatever broke, it gets an answer.
          LOG.error("{} failed for call {} outside the operation", request.getOpCase(), request.getCallId(), e);
          response = error(request, Code.INTERNAL_ERROR, request.getOpCase() + " failed: " + e);
        }
        reply.accept(response);
      });
    } catch (RejectedExecutionException e) {
      reply.accept(error(request, Code.SERVER_BUSY, "Server is overloaded; retry later"));
    }
  }

  private Response runAudited(Operation op, Request request, SocketAddress remote) {
    String before = auditor.beforeApply(request);
    Response response;
    CallerAddress.set(remote);
    try {
      response = run(op, request);
    } finally {
      CallerAddress.clear();
    }
    if (response.getCode() == Code.RESOLVE_ELSEWHERE) {
      metrics.redirected();
    } else {
      metrics.operationServed();
    }
    auditor.record(request, remote, response, before);
    return response;
  }

  private Response run(Operation op, Request request) {
    try {
      return op.apply(request).setCallId(request.getCallId()).setCode(Code.OK).build();
    } catch (ResolveElsewhereException e) {
      return error(request, e.code(), e.getMessage()).toBuilder()
          .setResolved(e.resolution()).setResolvedDst(e.destination()).build();
    } catch (IndexFsException e) {
      return error(request, e.code(), e.getMessage());
    } catch (IOException | RuntimeException e) {
      LOG.error("{} failed for call {}", request.getOpCase(), request.getCallId(), e);
      return error(request, Code.INTERNAL_ERROR, request.getOpCase() + " failed: " + e);
    }
  }

  static Response error(Request request, Code code, String message) {
    return Response.newBuilder().setCallId(request.getCallId()).setCode(code).setMessage(message).build();
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
