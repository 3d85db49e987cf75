package org.indexfs.bench.report;

import java.util.List;

/** Everything one target did in a benchmark: its label, URI, wall time, and per-operation metrics. */
public record TargetRun(String label, String uri, double seconds, List<OpMetrics> ops, OpMetrics total) {

  public OpMetrics op(String name) {
    if (total.op().equals(name)) {
      return total;
    }
    return ops.stream().filter(o -> o.op().equals(name)).findFirst().orElse(null);
  }
}
