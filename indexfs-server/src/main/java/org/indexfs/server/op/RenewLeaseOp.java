package org.indexfs.server.op;

import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;

/** {@code renewLease}: the calling client is alive; all its write leases start a new period. */
public final class RenewLeaseOp implements Operation {
  private final OpContext ctx;

  public RenewLeaseOp(OpContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Response.Builder apply(Request request) throws IndexFsException {
    ctx.leases().renew(Writers.holder(request.getCaller()));
    return Response.newBuilder();
  }
}
