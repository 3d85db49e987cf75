package org.indexfs.server.admin;

import java.io.IOException;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.proto.SafeModeRequest;

/**
 * {@code admin -safemode get|enter|leave}. As in HDFS, anybody may ask whether safe mode is on;
 * only the superuser may switch it. A slot answers "on" only once no split runs there.
 */
final class SafeModeOp implements org.indexfs.server.op.Operation {
  /** How long a slot entering safe mode waits for its running split (one SST's move) to end. */
  private static final long SPLIT_WAIT_MS = 60_000;

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
    if (admin.safeMode().isOn()) {
      // Enforced means quiet: no split starts any more, and the one running here has ended (the
      // admin client's ENTER returns once every slot says so; fsck then reads a still cluster).
      admin.ops().splits().awaitIdle(SPLIT_WAIT_MS);
    }
    return Response.newBuilder().setSafeMode(admin.safeMode().status());
  }
}
