package org.indexfs.server.rpc;

import java.net.InetSocketAddress;

/**
 * Runs an operation as the dispatcher does for a call from {@code ip}: operations put the caller's
 * address in HDFS's messages ({@link CallerAddress}), which only the dispatcher sets.
 */
public final class CallerAddresses {
  private CallerAddresses() {}

  /** Work that may throw what an operation throws. */
  @FunctionalInterface
  public interface Call<T> {
    T run() throws Exception;
  }

  public static <T> T from(String ip, Call<T> call) throws Exception {
    CallerAddress.set(new InetSocketAddress(ip, 40_000));
    try {
      return call.run();
    } finally {
      CallerAddress.clear();
    }
  }
}
