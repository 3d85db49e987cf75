package org.indexfs.server.rpc;

import java.net.SocketAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warnings about what clients sent, and about calls that failed inside the server, at a bounded
 * rate (DESIGN §14): a burst of {@value #BURST}
 * lines, then {@value #PER_SECOND} a second, the next line saying how many were left out. A flood
 * of garbage from thousands of connections must not become a flood of log lines, while an
 * occasional bad client is still logged every time. (Hadoop's LogThrottlingHelper logs one line per
 * period, which would hide the second of two unrelated bad clients.)
 */
final class BadInputLog {
  static final int BURST = 20;
  static final int PER_SECOND = 5;

  enum Kind {
    MALFORMED("malformed request frame"),
    OVERSIZED("oversized frame"),
    TOO_SLOW("frame not completed in time"),
    OVER_BUDGET("partial frames over the buffer budget"),
    TOO_MANY_CONNECTIONS("connection over the limit"),
    AUTHENTICATION("authentication failed"),
    FAILED("connection error");

    final String what;

    Kind(String what) {
      this.what = what;
    }
  }

  private final Logger log;
  private double tokens = BURST;
  private long refilledNanos = System.nanoTime();
  private long suppressed;

  /** Lines about connections, on the transport's logger. */
  BadInputLog() {
    this(LoggerFactory.getLogger(RpcServer.class));
  }

  BadInputLog(Logger log) {
    this.log = log;
  }

  void warn(Kind kind, SocketAddress from, String detail) {
    long left = admit();
    if (left >= 0) {
      log.warn("Closing connection from {}: {}: {}{}", from, kind.what, detail, leftOut(left));
    }
  }

  /**
   * A call the server failed on (INTERNAL_ERROR), with the stack trace, at the same bounded rate:
   * a request that makes an operation throw, sent in a loop, must not fill the disk (issue 31).
   */
  void failure(String what, Throwable cause) {
    long left = admit();
    if (left >= 0) {
      log.error(what + leftOut(left), cause);
    }
  }

  /** Lines left out before this one, or -1 when this one is left out too. */
  private synchronized long admit() {
    long now = System.nanoTime();
    tokens = Math.min(BURST, tokens + (now - refilledNanos) * PER_SECOND / 1e9);
    refilledNanos = now;
    if (tokens < 1) {
      suppressed++;
      return -1;
    }
    tokens--;
    long left = suppressed;
    suppressed = 0;
    return left;
  }

  private static String leftOut(long left) {
    return left > 0 ? " (" + left + " earlier lines of this kind were not logged)" : "";
  }

  /** Lines left out since the last one logged (tests). */
  synchronized long suppressed() {
    return suppressed;
  }
}
