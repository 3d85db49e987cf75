package org.indexfs.server.metrics;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.indexfs.proto.Code;
import org.indexfs.proto.Request.OpCase;

/**
 * Per-operation counts, latency and queue time (time waiting for a handler), recorded once per
 * call by the dispatcher. Counts are cumulative; percentiles are over the last window.
 */
public final class OpStats {
  /** One operation's numbers. */
  public static final class Op {
    private final LongAdder count = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LatencyWindow latencyMicros = new LatencyWindow();

    public long count() {
      return count.sum();
    }

    /** Calls answered with an error code (redirects and stale resolutions are not errors). */
    public long errors() {
      return errors.sum();
    }

    public LatencyWindow latencyMicros() {
      return latencyMicros;
    }
  }

  private final Map<OpCase, Op> ops = new EnumMap<>(OpCase.class);
  private final LatencyWindow queueMicros = new LatencyWindow();
  private final LongAdder served = new LongAdder();
  private final LongAdder redirects = new LongAdder();

  public OpStats() {
    for (OpCase op : OpCase.values()) {
      if (op != OpCase.OP_NOT_SET) {
        ops.put(op, new Op());
      }
    }
  }

  /** A call of {@code op} answered {@code code}, after {@code queueNanos} waiting and {@code serviceNanos} running. */
  public void record(OpCase op, Code code, long queueNanos, long serviceNanos) {
    Op o = ops.get(op);
    if (o == null) {
      return;
    }
    queueMicros.record(queueNanos / 1000);
    // Both mean "ask another slot" (client-side resolution, a moved partition): routing, not failure.
    if (code == Code.RESOLVE_ELSEWHERE || code == Code.STALE_RESOLUTION) {
      redirects.increment();
      return;
    }
    served.increment();
    o.count.increment();
    o.latencyMicros.record(serviceNanos / 1000);
    if (code != Code.OK) {
      o.errors.increment();
    }
  }

  public Map<OpCase, Op> ops() {
    return ops;
  }

  public Op op(OpCase op) {
    return ops.get(op);
  }

  public LatencyWindow queueMicros() {
    return queueMicros;
  }

  /** Calls answered here, redirects excluded. */
  public long served() {
    return served.sum();
  }

  /** Calls answered "continue at another slot" or "resolve again". */
  public long redirects() {
    return redirects.sum();
  }

  void roll() {
    queueMicros.roll();
    ops.values().forEach(o -> o.latencyMicros.roll());
  }

  /** Prometheus-friendly name of an operation: {@code GET_FILE_STATUS} → {@code getFileStatus}. */
  public static String name(OpCase op) {
    String[] parts = op.name().toLowerCase(java.util.Locale.ROOT).split("_");
    StringBuilder b = new StringBuilder(parts[0]);
    for (int i = 1; i < parts.length; i++) {
      b.append(Character.toUpperCase(parts[i].charAt(0))).append(parts[i].substring(1));
    }
    return b.toString();
  }
}
