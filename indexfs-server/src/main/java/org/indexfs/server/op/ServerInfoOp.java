package org.indexfs.server.op;

import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.proto.ServerInfo;
import org.indexfs.server.data.ServerDefaults;

/** What a client needs to know about a server before its first operation. */
public final class ServerInfoOp implements Operation {
  private final OpContext ctx;
  private final ServerDefaults defaults;

  public ServerInfoOp(OpContext ctx, ServerDefaults defaults) {
    this.ctx = ctx;
    this.defaults = defaults;
  }

  @Override
  public Response.Builder apply(Request request) {
    return Response.newBuilder().setServerInfo(ServerInfo.newBuilder()
        .setSlot(ctx.ns().slot())
        .setDataUri(ctx.dataUri())
        .setInlineMaxBytes(ctx.inlineMaxBytes())
        .setEntries(ctx.ns().store().estimatedEntries())
        .setSuperuser(ctx.access().superuser())
        .setLeaseSoftLimitMs(ctx.leases().softLimitMs())
        .setServerDefaults(defaults.get()));
  }
}
