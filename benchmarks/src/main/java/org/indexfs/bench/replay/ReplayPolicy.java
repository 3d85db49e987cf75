package org.indexfs.bench.replay;

/**
 * What an audit record does not say but a replay must choose: bytes written by {@code create}
 * and {@code append}, the length {@code truncate} cuts to, the factor {@code setReplication}
 * sets. HDFS logs none of them, so a replay reproduces them only when the traced workload used
 * these same values (the round-trip test's workload does).
 */
public record ReplayPolicy(int createBytes, int appendBytes, long truncateTo, short replication) {
  public static final ReplayPolicy DEFAULT = new ReplayPolicy(0, 0, 0, (short) 2);
}
