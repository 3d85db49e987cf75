package org.indexfs.bench.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;
import org.indexfs.bench.report.BenchReport;
import org.indexfs.bench.report.OpMetrics;
import org.indexfs.bench.report.Table;
import org.indexfs.bench.report.TargetRun;

/** Turns replay results into a {@link BenchReport}: per-command metrics, the trace's contents, outcomes vs. the trace. */
final class ReplayReport {
  private ReplayReport() {}

  static BenchReport build(String title, TraceCounts counts, PrecreatePlan plan, List<ReplayResult> results,
      Map<String, String> facts) {
    BenchReport report = new BenchReport(title).mixed(true);
    facts.forEach(report::fact);
    report.fact("trace lines", counts.lines()).fact("replayable records", counts.usableTotal())
        .fact("pre-created entries", plan.entries().size());
    for (ReplayResult r : results) {
      report.fact(r.label() + " replay", String.format(Locale.ROOT, "%,d calls in %.1f s (%,.0f calls/s), "
          + "%,d outcomes differ from the trace; pre-create %,d entries in %.1f s", r.calls(), r.seconds(),
          r.throughput(), r.unexpected(), r.precreated(), r.precreateSeconds()));
      report.run(targetRun(r));
    }
    report.table(traceTable(counts, plan));
    report.table(outcomeTable(results));
    return report;
  }

  static TargetRun targetRun(ReplayResult r) {
    List<OpMetrics> ops = new ArrayList<>();
    Histogram all = new Histogram(3_600_000_000L, 3);
    long errors = 0;
    for (Map.Entry<Command, CommandStats> e : r.byCommand().entrySet()) {
      CommandStats s = e.getValue();
      ops.add(OpMetrics.of(e.getKey().auditName(), s.latencyMicros(), r.seconds(), s.unexpected()));
      all.add(s.latencyMicros());
      errors += s.unexpected();
    }
    return new TargetRun(r.label(), r.uri(), r.seconds(), ops, OpMetrics.of("all", all, r.seconds(), errors));
  }

  private static Table traceTable(TraceCounts counts, PrecreatePlan plan) {
    List<List<String>> rows = new ArrayList<>();
    counts.usableByCommand().forEach((c, n) -> rows.add(List.of("replayable: " + c.auditName(), fmt(n))));
    counts.unusableByReason().forEach((reason, n) -> rows.add(List.of("not used: " + reason, fmt(n))));
    plan.inconsistencies().forEach((reason, n) -> rows.add(List.of("unexplained by the trace: " + reason, fmt(n))));
    return new Table("The trace, line by line", List.of("lines", "count"), rows);
  }

  private static Table outcomeTable(List<ReplayResult> results) {
    List<List<String>> rows = new ArrayList<>();
    for (ReplayResult r : results) {
      for (Map.Entry<Command, CommandStats> e : r.byCommand().entrySet()) {
        CommandStats s = e.getValue();
        long allowed = s.outcomesWhenAllowed().values().stream().mapToLong(Long::longValue).sum();
        long refused = s.outcomesWhenRefused().values().stream().mapToLong(Long::longValue).sum();
        rows.add(List.of(r.label() + " " + e.getKey().auditName(), fmt(allowed),
            fmt(s.outcomesWhenAllowed().getOrDefault(CallRunner.OK, 0L)), fmt(refused), fmt(s.expectedFailures()),
            fmt(s.unexpected()), describe(s)));
      }
    }
    return new Table("Outcomes against what the trace implies",
        List.of("target command", "trace: allowed", "succeeded", "trace: refused", "refused again", "differ",
            "unexpected outcomes"), rows);
  }

  /** The outcomes that differ from the trace, e.g. {@code allowed→FileNotFoundException×3}. */
  private static String describe(CommandStats s) {
    String a = s.outcomesWhenAllowed().entrySet().stream().filter(o -> !o.getKey().equals(CallRunner.OK))
        .map(o -> "allowed→" + o.getKey() + "×" + o.getValue()).collect(Collectors.joining(", "));
    String r = s.outcomesWhenRefused().entrySet().stream()
        .filter(o -> o.getKey().equals(CallRunner.OK)
            || (!o.getKey().equals("AccessControlException") && !o.getKey().equals(CallRunner.FALSE)))
        .map(o -> "refused→" + o.getKey() + "×" + o.getValue()).collect(Collectors.joining(", "));
    String both = a.isEmpty() ? r : r.isEmpty() ? a : a + ", " + r;
    return both.isEmpty() ? "-" : both;
  }

  private static String fmt(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }
}
