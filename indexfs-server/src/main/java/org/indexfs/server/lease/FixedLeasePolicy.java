package org.indexfs.server.lease;

/** Every grant lasts {@code ms}. */
record FixedLeasePolicy(long ms) implements LeasePolicy {
  FixedLeasePolicy {
    if (ms < 0) {
      throw new IllegalArgumentException("Fixed lease must be >= 0 ms, was " + ms);
    }
  }

  @Override
  public long ttlMs(int depth, double readRate, double writeRate) {
    return ms;
  }

  @Override
  public long maxTtlMs() {
    return ms;
  }
}
