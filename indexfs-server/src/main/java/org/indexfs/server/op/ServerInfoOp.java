package org.indexfs.server.op;

import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.proto.ServerInfo;

/** What a client needs to know about a server before its first operation. */
public final class ServerInfoOp implements Operation {
  private final OpContext ctx;

  public ServerInfoOp(OpContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Response.Builder apply(Request request) {
    return Response.newBuilder().setServerInfo(ServerInfo.newBuilder()
        .setSlot(ctx.ns().slot())
        .setDataUri(ctx.dataUri())
        .setInlineMaxBytes(ctx.inlineMaxBytes())
        .setEntries(ctx.ns().store().estimatedEntries())
        .setSuperuser(ctx.access().superuser())
        .setLeaseSoftLimitMs(ctx.leases().softLimitMs()));
  }
}
