package org.indexfs.server.rpc;

import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * The address a call came from, for the operation running it (HDFS: {@code Server.getRemoteIp()},
 * which the NameNode puts in messages such as "... for client 127.0.0.1 already exists"). Set by
 * the dispatcher around an operation, on the thread that runs it.
 */
public final class CallerAddress {
  private static final ThreadLocal<SocketAddress> CURRENT = new ThreadLocal<>();

  private CallerAddress() {}

  static void set(SocketAddress remote) {
    CURRENT.set(remote);
  }

  static void clear() {
    CURRENT.remove();
  }

  /** The caller's IP address as HDFS prints it, or "" outside a call. */
  public static String ip() {
    SocketAddress remote = CURRENT.get();
    if (remote instanceof InetSocketAddress inet && inet.getAddress() != null) {
      return inet.getAddress().getHostAddress();
    }
    return "";
  }
}
