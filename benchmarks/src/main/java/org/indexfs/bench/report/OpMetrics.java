package org.indexfs.bench.report;

import org.HdrHistogram.Histogram;

/** One operation's numbers in one run: count, throughput, latency percentiles (µs) and errors. */
public record OpMetrics(String op, long count, double opsPerSecond, long p50, long p90, long p99, long p999,
    long max, long errors) {

  /** From a latency histogram in microseconds over a run of {@code seconds}. */
  public static OpMetrics of(String op, Histogram micros, double seconds, long errors) {
    return new OpMetrics(op, micros.getTotalCount(), seconds > 0 ? micros.getTotalCount() / seconds : 0,
        micros.getValueAtPercentile(50), micros.getValueAtPercentile(90), micros.getValueAtPercentile(99),
        micros.getValueAtPercentile(99.9), micros.getMaxValue(), errors);
  }
}
