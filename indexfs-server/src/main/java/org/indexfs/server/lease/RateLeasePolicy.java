package org.indexfs.server.lease;

/**
 * {@code maxMs · r/(r+w)}. An entry with no history at all (r = w = 0) gets {@code maxMs}: nothing
 * says it changes. {@link EntryLeases} counts the lookup itself as a read, so that case is rare.
 */
record RateLeasePolicy(long maxMs) implements LeasePolicy {
  RateLeasePolicy {
    if (maxMs < 0) {
      throw new IllegalArgumentException("Maximum lease must be >= 0 ms, was " + maxMs);
    }
  }

  @Override
  public long ttlMs(int depth, double readRate, double writeRate) {
    double r = Math.max(0, readRate);
    double w = Math.max(0, writeRate);
    if (r + w <= 0) {
      return maxMs;
    }
    // floor: r/(r+w) <= 1, so the result never exceeds maxMs.
    return (long) (maxMs * (r / (r + w)));
  }

  @Override
  public long maxTtlMs() {
    return maxMs;
  }
}
