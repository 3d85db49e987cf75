package org.indexfs.server.metrics;

/**
 * Operations per second over the last {@link #SECONDS} seconds, sampled once a second from the
 * cumulative count: what the status page draws.
 */
public final class RateHistory {
  public static final int SECONDS = 120;

  private final long[] rates = new long[SECONDS];
  private int next;
  private int filled;
  private long lastCount = -1;

  /** Called once a second with the cumulative count. */
  public synchronized void sample(long count) {
    if (lastCount >= 0) {
      rates[next] = Math.max(0, count - lastCount);
      next = (next + 1) % SECONDS;
      filled = Math.min(SECONDS, filled + 1);
    }
    lastCount = count;
  }

  /** The sampled rates, oldest first. */
  public synchronized long[] rates() {
    long[] out = new long[filled];
    for (int i = 0; i < filled; i++) {
      out[i] = rates[(next - filled + i + SECONDS) % SECONDS];
    }
    return out;
  }
}
