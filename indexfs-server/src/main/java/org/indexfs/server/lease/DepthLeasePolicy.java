package org.indexfs.server.lease;

/** {@code maxMs / depth}; a depth below 1 (the root itself) counts as 1 rather than failing. */
record DepthLeasePolicy(long maxMs) implements LeasePolicy {
  DepthLeasePolicy {
    if (maxMs < 0) {
      throw new IllegalArgumentException("Maximum lease must be >= 0 ms, was " + maxMs);
    }
  }

  @Override
  public long ttlMs(int depth, double readRate, double writeRate) {
    return maxMs / Math.max(1, depth);
  }

  @Override
  public long maxTtlMs() {
    return maxMs;
  }
}
