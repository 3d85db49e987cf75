package org.indexfs.server.lease;

import java.util.Locale;

/**
 * How long a lease on a directory entry lasts (IndexFS, SC'14, §II-B "lease duration"). Longer
 * leases save lookup RPCs; shorter ones make mutations of the entry wait less. Chosen by
 * {@code indexfs.lease.policy}: {@link #fixed}, {@link #depth} or {@link #rate} (the default).
 */
public interface LeasePolicy {
  /**
   * The TTL in ms for a grant on an entry at tree depth {@code depth} (the root's children are at
   * depth 1), given the entry's decayed read and write counts (reads include this lookup). Never
   * negative and never more than {@link #maxTtlMs}.
   */
  long ttlMs(int depth, double readRate, double writeRate);

  /** The longest TTL this policy grants: how long a restarted server must assume leases live. */
  long maxTtlMs();

  /** The same TTL for every entry (the paper's 100 ms and 1 s runs). */
  static LeasePolicy fixed(long ms) {
    return new FixedLeasePolicy(ms);
  }

  /** {@code maxMs / depth}: the root's children are read most, changed least (paper: 3s/depth). */
  static LeasePolicy depth(long maxMs) {
    return new DepthLeasePolicy(maxMs);
  }

  /**
   * {@code maxMs · r/(r+w)} with r, w the entry's recent reads and writes: an entry never written
   * gets {@code maxMs}, one mostly written gets close to 0 (paper: L_r = 1 s).
   */
  static LeasePolicy rate(long maxMs) {
    return new RateLeasePolicy(maxMs);
  }

  /**
   * The policy named by {@code indexfs.lease.policy}: {@code fixed} uses {@code fixedMs},
   * {@code depth} and {@code rate} use {@code maxMs}. Case and surrounding blanks are ignored.
   *
   * @throws IllegalArgumentException for any other name
   */
  static LeasePolicy of(String name, long fixedMs, long maxMs) {
    String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
    return switch (n) {
      case "fixed" -> fixed(fixedMs);
      case "depth" -> depth(maxMs);
      case "rate" -> rate(maxMs);
      default -> throw new IllegalArgumentException(
          "Unknown lease policy '" + name
              + "' (indexfs.lease.policy): expected fixed, depth or rate");
    };
  }
}
