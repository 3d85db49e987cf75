package org.indexfs.bench.cluster;

/**
 * One host over one timed run: the CPU it used against what its slice allowed, how often the
 * quota stopped it, and how long its threads waited for a CPU. On a machine others use too, a
 * quota only caps a host; these say whether it also got its slice. A host that met its quota in
 * many periods had its slice. A host well under its slice that was rarely throttled either had no
 * more work (its clients did not send it any) or was kept from the CPU by others: its threads'
 * run delay tells the two apart.
 *
 * @param quota CPUs its slice allows; -1 for a host without a quota (clients, ZooKeeper)
 */
record HostUse(String host, double quota, long cpuNanos, double window, CpuSlices.Throttling t) {
  /** Under this share of its slice a host did not use its slice. */
  static final double UNDER = 0.8;
  /** Throttled in under this share of the periods: the quota was not what held it back. */
  static final double RARELY = 0.1;

  /** CPU used over the slice's allowance (1.0: all of it); NaN without a quota. */
  double sliceUse() {
    return quota > 0 ? cpuNanos / (quota * window * 1e9) : Double.NaN;
  }

  /** Cores used on average over the window. */
  double cores() {
    return cpuNanos / (window * 1e9);
  }

  double throttledShare() {
    return t.periods() == 0 ? 0 : t.throttledPeriods() / (double) t.periods();
  }

  /** Time its threads were runnable but not running, over the window (summed over threads). */
  double waitShare() {
    return t.waitNanos() / (window * 1e9);
  }

  /**
   * Kept from its slice: it used under {@link #UNDER} of it, was rarely throttled, and its
   * threads waited for a CPU at least as long as the slice time it left unused — had it run
   * when it waited, it would have filled its slice. Such a run measured the machine's load, not
   * the system: the report flags it invalid.
   */
  boolean starved() {
    if (quota <= 0 || window <= 0) {
      return false;
    }
    double unusedNanos = quota * window * 1e9 - cpuNanos;
    return sliceUse() < UNDER && throttledShare() < RARELY && t.waitNanos() >= unusedNanos;
  }
}
