package org.indexfs.bench.replay;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;
import org.indexfs.bench.report.BenchReport;
import org.indexfs.bench.report.OpMetrics;
import org.indexfs.bench.report.Table;
import org.indexfs.bench.report.TargetRun;

/**
 * Turns a replay into a {@link BenchReport}: per-command numbers pooled over the measured rounds,
 * each round's throughput and the ratio's median and spread across rounds, per-command medians
 * and spread, the trace's contents, what the pre-create plan assumed, and outcomes against what
 * the trace implies (every differing record is in {@code differences.tsv}).
 */
final class ReplayReport {
  private ReplayReport() {}

  static BenchReport build(String title, TraceCounts counts, PrecreatePlan plan, List<TargetSession> targets,
      ReplayRounds.Result result, DifferencesFile differences, Map<String, String> facts, long minCalls) {
    BenchReport report = new BenchReport(title).mixed(true).minCallsForRatio(minCalls);
    facts.forEach(report::fact);
    report.fact("trace lines", String.format(Locale.ROOT, "%,d: %,d replayable, %,d not replayed (by reason below)",
        counts.lines(), counts.usableTotal(), counts.lines() - counts.usableTotal()));
    report.fact("pre-created entries", String.format(Locale.ROOT, "%,d per copy of the trace", plan.entries().size()));
    if (!plan.superusers().isEmpty()) {
      report.fact("acting as superusers", plan.superusers() + " give entries away in the trace: replayed as the "
          + "replaying user, the targets' superuser");
    }
    for (TargetSession t : targets) {
      double seconds = t.precreates().stream().mapToDouble(Precreator.Result::seconds).sum();
      long failed = t.precreates().stream().mapToLong(Precreator.Result::failed).sum();
      report.fact(t.label() + " pre-create", String.format(Locale.ROOT, "%d cop%s in %.1f s, %,d steps failed",
          t.copies(), t.copies() == 1 ? "y" : "ies", seconds, failed));
    }
    report.fact("warm-up", String.format(Locale.ROOT, "%,d records per target, not measured",
        result.warmups().isEmpty() ? 0 : result.warmups().get(0).records()));
    report.fact("rounds", result.sizing() + "; the order alternates (A B, B A, ...)");
    List<String> labels = targets.stream().map(TargetSession::label).toList();
    if (labels.size() == 2) {
      report.fact(labels.get(0) + " / " + labels.get(1) + " throughput per round", spread(ratios(result, labels)));
    }
    for (int i = 0; i < targets.size(); i++) {
      String l = labels.get(i);
      Pooled p = pooled(result, l);
      report.fact(l + " replay", String.format(Locale.ROOT, "%,d measured calls in %.1f s (%,.0f calls/s); "
          + "%,d replayed records differ from what the trace implies (warm-up included)", p.calls, p.seconds,
          p.seconds > 0 ? p.calls / p.seconds : 0, differences.differences(i)));
      report.run(targetRun(l, targets.get(i).settings.uri().toString(), p));
    }
    report.attachment(DifferencesFile.NAME, String.format(Locale.ROOT, "%,d records that differ on some target: "
        + "line, audit record, expected outcome and what each target did", differences.rows()));
    report.table(roundsTable(result, labels));
    report.table(perCommandTable(result, labels, minCalls));
    report.table(traceTable(counts));
    report.table(planTable(plan));
    Table failures = precreateFailures(targets);
    if (!failures.rows().isEmpty()) {
      report.table(failures);
    }
    report.table(outcomeTable(result, labels));
    return report;
  }

  private record Pooled(Map<Command, CommandStats> stats, long calls, double seconds) {}

  private static Pooled pooled(ReplayRounds.Result result, String label) {
    Map<Command, CommandStats> stats = new EnumMap<>(Command.class);
    long calls = 0;
    double seconds = 0;
    for (ReplayRounds.Round r : result.rounds()) {
      ReplayRounds.Run run = r.byLabel().get(label);
      run.stats().forEach((c, s) -> stats.computeIfAbsent(c, k -> new CommandStats()).add(s));
      calls += run.records();
      seconds += run.seconds();
    }
    return new Pooled(stats, calls, seconds);
  }

  private static TargetRun targetRun(String label, String uri, Pooled p) {
    List<OpMetrics> ops = new ArrayList<>();
    Histogram all = new Histogram(3_600_000_000L, 3);
    long errors = 0;
    for (Map.Entry<Command, CommandStats> e : p.stats.entrySet()) {
      CommandStats s = e.getValue();
      ops.add(OpMetrics.of(e.getKey().auditName(), s.latencyMicros(), p.seconds, s.unexpected()));
      all.add(s.latencyMicros());
      errors += s.unexpected();
    }
    return new TargetRun(label, uri, p.seconds, ops, OpMetrics.of("all", all, p.seconds, errors));
  }

  private static List<Double> ratios(ReplayRounds.Result result, List<String> labels) {
    List<Double> out = new ArrayList<>();
    for (ReplayRounds.Round r : result.rounds()) {
      double a = r.byLabel().get(labels.get(0)).throughput();
      double b = r.byLabel().get(labels.get(1)).throughput();
      if (a > 0 && b > 0) {
        out.add(a / b);
      }
    }
    return out;
  }

  /** "median 1.23 (min 1.10, max 1.40; 6 rounds)". */
  static String spread(List<Double> values) {
    if (values.isEmpty()) {
      return "-";
    }
    List<Double> v = new ArrayList<>(values);
    v.sort(null);
    return String.format(Locale.ROOT, "median %.2f (min %.2f, max %.2f; %d round%s)", median(v), v.get(0),
        v.get(v.size() - 1), v.size(), v.size() == 1 ? "" : "s");
  }

  static double median(List<Double> sorted) {
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  private static Table roundsTable(ReplayRounds.Result result, List<String> labels) {
    List<String> headers = new ArrayList<>(List.of("round", "order", "records"));
    for (String l : labels) {
      headers.addAll(List.of(l + " s", l + " calls/s", l + " differ"));
    }
    if (labels.size() == 2) {
      headers.add(labels.get(0) + " / " + labels.get(1));
    }
    List<List<String>> rows = new ArrayList<>();
    for (ReplayRounds.Round r : result.rounds()) {
      List<String> row = new ArrayList<>(List.of(String.valueOf(r.number()), String.join(" ", r.order()), fmt(r.records())));
      for (String l : labels) {
        ReplayRounds.Run run = r.byLabel().get(l);
        row.addAll(List.of(String.format(Locale.ROOT, "%.1f", run.seconds()), fmt(Math.round(run.throughput())),
            fmt(run.differences())));
      }
      if (labels.size() == 2) {
        double b = r.byLabel().get(labels.get(1)).throughput();
        row.add(b > 0 ? String.format(Locale.ROOT, "%.2f", r.byLabel().get(labels.get(0)).throughput() / b) : "-");
      }
      rows.add(row);
    }
    return new Table("Rounds: each replays the same stretch of the trace on every target", headers, rows);
  }

  private static Table perCommandTable(ReplayRounds.Result result, List<String> labels, long minCalls) {
    List<String> headers = new ArrayList<>(List.of("command"));
    for (String l : labels) {
      headers.addAll(List.of(l + " calls", l + " p50 µs per round"));
    }
    if (labels.size() == 2) {
      headers.add("p50 ratio per round");
    }
    List<List<String>> rows = new ArrayList<>();
    for (Command c : Command.values()) {
      List<List<Double>> p50s = new ArrayList<>();
      List<Long> calls = new ArrayList<>();
      for (String l : labels) {
        List<Double> v = new ArrayList<>();
        long n = 0;
        for (ReplayRounds.Round r : result.rounds()) {
          CommandStats s = r.byLabel().get(l).stats().get(c);
          if (s != null) {
            n += s.count();
            v.add(s.count() >= minCalls ? (double) s.latencyMicros().getValueAtPercentile(50) : Double.NaN);
          } else {
            v.add(Double.NaN);
          }
        }
        p50s.add(v);
        calls.add(n);
      }
      if (calls.stream().allMatch(n -> n == 0)) {
        continue;
      }
      List<String> row = new ArrayList<>(List.of(c.auditName()));
      for (int i = 0; i < labels.size(); i++) {
        row.add(fmt(calls.get(i)));
        row.add(spreadOf(p50s.get(i), "%.0f"));
      }
      if (labels.size() == 2) {
        List<Double> ratio = new ArrayList<>();
        for (int r = 0; r < p50s.get(0).size(); r++) {
          ratio.add(p50s.get(0).get(r) / p50s.get(1).get(r));
        }
        row.add(spreadOf(ratio, "%.2f"));
      }
      rows.add(row);
    }
    return new Table(String.format(Locale.ROOT, "Per command across rounds: median (min–max) of each round's p50; "
        + "a round counts only where a target ran at least %,d calls of the command", minCalls), headers, rows);
  }

  private static String spreadOf(List<Double> values, String format) {
    List<Double> v = values.stream().filter(d -> !d.isNaN() && !d.isInfinite()).sorted().collect(Collectors.toList());
    if (v.isEmpty()) {
      return "-";
    }
    String f = format;
    return String.format(Locale.ROOT, f + " (" + f + "–" + f + ")", median(v), v.get(0), v.get(v.size() - 1));
  }

  private static Table traceTable(TraceCounts counts) {
    List<List<String>> rows = new ArrayList<>();
    counts.usableByCommand().forEach((c, n) -> rows.add(List.of("replayable: " + c.auditName(), fmt(n))));
    counts.unusableByReason().forEach((reason, n) -> rows.add(List.of("not replayed: " + reason, fmt(n))));
    return new Table("The trace, line by line", List.of("lines", "count"), rows);
  }

  private static Table planTable(PrecreatePlan plan) {
    List<List<String>> rows = new ArrayList<>();
    plan.inferences().forEach((what, n) -> rows.add(List.of(what, fmt(n))));
    plan.inconsistencies().forEach((reason, n) -> rows.add(List.of("calls the trace does not explain: " + reason, fmt(n))));
    return new Table("What the pre-create plan inferred and assumed", List.of("what", "count"), rows);
  }

  private static Table precreateFailures(List<TargetSession> targets) {
    List<List<String>> rows = new ArrayList<>();
    for (TargetSession t : targets) {
      for (Precreator.Result r : t.precreates()) {
        r.failures().forEach((reason, n) -> rows.add(List.of(t.label() + ": " + reason, fmt(n))));
      }
    }
    return new Table("Pre-create steps that failed", List.of("target: step", "count"), rows);
  }

  private static Table outcomeTable(ReplayRounds.Result result, List<String> labels) {
    List<List<String>> rows = new ArrayList<>();
    for (String l : labels) {
      Map<Command, CommandStats> all = new EnumMap<>(Command.class);
      List<ReplayRounds.Run> runs = new ArrayList<>();
      result.warmups().stream().filter(w -> w.label().equals(l)).forEach(runs::add);
      result.rounds().forEach(r -> runs.add(r.byLabel().get(l)));
      runs.forEach(run -> run.stats().forEach((c, s) -> all.computeIfAbsent(c, k -> new CommandStats()).add(s)));
      for (Map.Entry<Command, CommandStats> e : all.entrySet()) {
        CommandStats s = e.getValue();
        long allowed = s.outcomesWhenAllowed().values().stream().mapToLong(Long::longValue).sum();
        long refused = s.outcomesWhenRefused().values().stream().mapToLong(Long::longValue).sum();
        rows.add(List.of(l + " " + e.getKey().auditName(), fmt(allowed),
            fmt(s.outcomesWhenAllowed().getOrDefault(CallRunner.OK, 0L)),
            fmt(s.outcomesWhenAllowed().getOrDefault("FileNotFoundException", 0L)), fmt(refused),
            fmt(s.expectedFailures()), fmt(s.unexpected())));
      }
    }
    return new Table("Outcomes against what the trace implies (every replayed record; each difference is in "
        + DifferencesFile.NAME + ")", List.of("target command", "trace: allowed", "succeeded", "found nothing",
            "trace: refused", "refused again", "differ"), rows);
  }

  private static String fmt(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }
}
