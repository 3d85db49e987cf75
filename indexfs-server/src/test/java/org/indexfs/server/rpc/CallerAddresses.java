package org.indexfs.server.rpc;

import java.net.InetSocketAddress;
import org.indexfs.proto.Request;

/**
 * Runs an operation as the dispatcher does for a call from {@code ip}: operations put the caller's
 * address in HDFS's messages ({@link org.indexfs.server.call.Call#callerIp}), which only the dispatcher sets.
 */
public final class CallerAddresses {
  private CallerAddresses() {}

  /** Work that may throw what an operation throws. */
  @FunctionalInterface
  public interface Call<T> {
    T run() throws Exception;
  }

  public static <T> T from(String ip, Call<T> call) throws Exception {
    org.indexfs.server.call.Call running = new org.indexfs.server.call.Call(Request.getDefaultInstance(), null, r -> { }, null);
    running.admitted(Request.getDefaultInstance(), new InetSocketAddress(ip, 40_000));
    running.enter();
    running.applying(true);
    try {
      return call.run();
    } finally {
      running.exit();
    }
  }
}
