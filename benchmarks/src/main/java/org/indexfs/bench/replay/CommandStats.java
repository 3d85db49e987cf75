package org.indexfs.bench.replay;

import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * What one command did in one replay: latencies (microseconds, HdrHistogram) and outcomes split
 * by what the trace implies — records it shows succeeding, and records it shows refused — and how
 * many differ from the {@link Expectation} of the pre-create plan.
 * One instance per worker thread, merged at the end, so recording never contends.
 */
public final class CommandStats {
  private final Histogram latencyMicros = new Histogram(3_600_000_000L, 3);
  private final Map<String, Long> outcomesWhenAllowed = new TreeMap<>();
  private final Map<String, Long> outcomesWhenRefused = new TreeMap<>();
  private long unexpected;
  private long expectedFailures;

  void record(AuditEvent e, Expectation expected, String outcome, long micros) {
    latencyMicros.recordValue(Math.max(0, Math.min(micros, latencyMicros.getHighestTrackableValue())));
    (e.allowed() ? outcomesWhenAllowed : outcomesWhenRefused).merge(outcome, 1L, Long::sum);
    if (!expected.matches(e.command(), outcome)) {
      unexpected++;
    } else if (!e.allowed()) {
      expectedFailures++;
    }
  }

  void add(CommandStats other) {
    latencyMicros.add(other.latencyMicros);
    other.outcomesWhenAllowed.forEach((k, v) -> outcomesWhenAllowed.merge(k, v, Long::sum));
    other.outcomesWhenRefused.forEach((k, v) -> outcomesWhenRefused.merge(k, v, Long::sum));
    unexpected += other.unexpected;
    expectedFailures += other.expectedFailures;
  }

  public long count() {
    return latencyMicros.getTotalCount();
  }

  public Histogram latencyMicros() {
    return latencyMicros;
  }

  /**
   * Outcomes of records the trace shows allowed ({@code allowed=true}): "ok", "false" or an
   * exception name (FileNotFoundException is expected where getfileinfo/listStatus probed a missing path).
   */
  public Map<String, Long> outcomesWhenAllowed() {
    return outcomesWhenAllowed;
  }

  /** Outcomes of records the trace shows refused ({@code allowed=false}). */
  public Map<String, Long> outcomesWhenRefused() {
    return outcomesWhenRefused;
  }

  /** Records whose outcome differs from what the trace and the plan imply. */
  public long unexpected() {
    return unexpected;
  }

  /** Records the trace shows refused that were refused here too. */
  public long expectedFailures() {
    return expectedFailures;
  }
}
