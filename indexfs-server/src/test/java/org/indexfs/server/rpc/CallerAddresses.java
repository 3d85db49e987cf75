package org.indexfs.server.rpc;

import java.net.InetSocketAddress;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.call.Call;
import org.indexfs.server.op.Operation;

/**
 * Runs an operation as the dispatcher does for a call from {@code ip}: operations put the caller's
 * address in HDFS's messages ({@link Call#callerIp}), taken from the call they are handed.
 */
public final class CallerAddresses {
  private CallerAddresses() {}

  public static Response.Builder run(String ip, Operation op, Request request) throws Exception {
    Call running = new Call(request, null, r -> { }, null);
    running.admitted(request, new InetSocketAddress(ip, 40_000));
    running.enter();
    running.applying(true);
    try {
      return op.apply(running);
    } finally {
      running.applying(false);
      running.exit();
    }
  }
}
