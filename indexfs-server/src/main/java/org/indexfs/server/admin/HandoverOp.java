package org.indexfs.server.admin;

import java.io.IOException;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;

/**
 * {@code admin -handover K [--to NAME]} (as {@code hdfs haadmin -failover}): this slot's owner
 * names its successor and starts stepping down; the answer leaves before it stops, and the
 * operator's tool waits for the new owner. Clients see no error: their calls are retried until the
 * successor answers, and those already applied are answered from the journaled retry cache.
 */
final class HandoverOp implements org.indexfs.server.op.Operation {
  private final AdminContext admin;

  HandoverOp(AdminContext admin) {
    this.admin = admin;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    admin.requireSuperuser(request.getCaller(), "transitionToStandby");
    String from = request.getHandover().getFrom();
    if (from.isEmpty() || from.equals(admin.rpcAddress())) {
      admin.ha().handOver(request.getHandover().getTo());
    }
    return Response.newBuilder();
  }
}
