package org.indexfs.server.rpc;

import java.net.SocketAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warnings about what clients sent, at a bounded rate (DESIGN §14): a burst of {@value #BURST}
 * lines, then {@value #PER_SECOND} a second, the next line saying how many were left out. A flood
 * of garbage from thousands of connections must not become a flood of log lines, while an
 * occasional bad client is still logged every time. (Hadoop's LogThrottlingHelper logs one line per
 * period, which would hide the second of two unrelated bad clients.)
 */
final class BadInputLog {
  private static final Logger LOG = LoggerFactory.getLogger(RpcServer.class);
  static final int BURST = 20;
  static final int PER_SECOND = 5;

  enum Kind {
    MALFORMED("malformed request frame"),
    OVERSIZED("oversized frame"),
    TOO_SLOW("frame not completed in time"),
    OVER_BUDGET("partial frames over the server's buffer budget"),
    AUTHENTICATION("authentication failed"),
    FAILED("connection error");

    final String what;

    Kind(String what) {
      this.what = what;
    }
  }

  private double tokens = BURST;
  private long refilledNanos = System.nanoTime();
  private long suppressed;

  void warn(Kind kind, SocketAddress from, String detail) {
    long left;
    synchronized (this) {
      long now = System.nanoTime();
      tokens = Math.min(BURST, tokens + (now - refilledNanos) * PER_SECOND / 1e9);
      refilledNanos = now;
      if (tokens < 1) {
        suppressed++;
        return;
      }
      tokens--;
      left = suppressed;
      suppressed = 0;
    }
    LOG.warn("Closing connection from {}: {}: {}{}", from, kind.what, detail,
        left > 0 ? " (" + left + " earlier warnings about bad input were not logged)" : "");
  }

  /** Lines left out since the last one logged (tests). */
  synchronized long suppressed() {
    return suppressed;
  }
}
