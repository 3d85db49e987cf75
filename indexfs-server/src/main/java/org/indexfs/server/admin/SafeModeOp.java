package org.indexfs.server.admin;

import java.io.IOException;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.proto.SafeModeRequest;

/**
 * {@code admin -safemode get|enter|leave}. As in HDFS, anybody may ask whether safe mode is on;
 * only the superuser may switch it.
 */
final class SafeModeOp implements org.indexfs.server.op.Operation {
  private final AdminContext admin;

  SafeModeOp(AdminContext admin) {
    this.admin = admin;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    SafeModeRequest.Action action = request.getSafeMode().getAction();
    if (action != SafeModeRequest.Action.GET) {
      admin.requireSuperuser(request.getCaller(), "safemode_" + action.name().toLowerCase(java.util.Locale.ROOT));
    }
    switch (action) {
      case ENTER -> admin.safeMode().enter(request.getCaller().getUser());
      case LEAVE -> admin.safeMode().leave();
      default -> {
        // GET: the state this slot enforces right now
      }
    }
    return Response.newBuilder().setSafeMode(admin.safeMode().status());
  }
}
