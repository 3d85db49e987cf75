package org.indexfs.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A benchmark's results: one {@link TargetRun} per target (the first is the system under test,
 * the second, if any, the baseline it is compared with), key facts about the run, and extra
 * tables. Rendered by {@link ReportWriter} as JSON, Markdown and HTML with PNG charts.
 */
public final class BenchReport {
  private final String title;
  private final Map<String, String> facts = new LinkedHashMap<>();
  private final List<TargetRun> runs = new ArrayList<>();
  private final List<Table> tables = new ArrayList<>();
  private final List<Curve> curves = new ArrayList<>();
  private final Map<String, String> attachments = new LinkedHashMap<>();
  private boolean mixed;
  private long minCallsForRatio;

  public BenchReport(String title) {
    this.title = title;
  }

  public BenchReport fact(String key, Object value) {
    facts.put(key, String.valueOf(value));
    return this;
  }

  public BenchReport run(TargetRun run) {
    runs.add(run);
    return this;
  }

  /**
   * Marks the runs as mixed: all operations ran interleaved in one timed run (a trace replay), so
   * an operation's ops/s is its share of the total and only the total's throughput compares.
   * Unmarked, each operation is taken to be timed on its own (mdtest-style phases).
   */
  public BenchReport mixed(boolean mixed) {
    this.mixed = mixed;
    return this;
  }

  public boolean mixed() {
    return mixed;
  }

  /**
   * Ratios between the two targets are shown only for operations both ran at least {@code calls}
   * times: a ratio of a handful of calls measures noise.
   */
  public BenchReport minCallsForRatio(long calls) {
    this.minCallsForRatio = calls;
    return this;
  }

  /** A file written beside the report (e.g. a TSV of every difference), linked from it. */
  public BenchReport attachment(String file, String description) {
    attachments.put(file, description);
    return this;
  }

  public Map<String, String> attachments() {
    return attachments;
  }

  public BenchReport table(Table table) {
    tables.add(table);
    return this;
  }

  /** Adds a line chart (a scaling curve) after the per-operation charts. */
  public BenchReport curve(Curve curve) {
    curves.add(curve);
    return this;
  }

  public List<Curve> curves() {
    return curves;
  }

  public String title() {
    return title;
  }

  public Map<String, String> facts() {
    return facts;
  }

  public List<TargetRun> runs() {
    return runs;
  }

  public List<Table> tables() {
    return tables;
  }

  /** Operations in the order they first appear across runs, then the total. */
  public List<String> operations() {
    Set<String> ops = new LinkedHashSet<>();
    runs.forEach(r -> r.ops().forEach(o -> ops.add(o.op())));
    return new ArrayList<>(ops);
  }

  /**
   * The side-by-side table: per operation, each target's throughput and p50/p99 latency, and with
   * two targets the ratios first/second (throughput above 1 and latency below 1 favour the first).
   */
  public Table comparison() {
    List<String> headers = new ArrayList<>(List.of("operation"));
    for (TargetRun r : runs) {
      headers.addAll(List.of(r.label() + " ops/s", r.label() + " p50 µs", r.label() + " p99 µs"));
    }
    boolean ratios = runs.size() == 2;
    if (ratios) {
      headers.addAll(List.of("ops/s ratio", "p50 ratio", "p99 ratio"));
    }
    List<List<String>> rows = new ArrayList<>();
    List<String> names = operations();
    names.add(runs.isEmpty() ? "total" : runs.get(0).total().op());
    for (String op : names) {
      List<String> row = new ArrayList<>(List.of(op));
      for (TargetRun r : runs) {
        OpMetrics m = r.op(op);
        row.addAll(m == null ? List.of("-", "-", "-")
            : List.of(num(m.opsPerSecond()), String.valueOf(m.p50()), String.valueOf(m.p99())));
      }
      if (ratios) {
        OpMetrics a = runs.get(0).op(op);
        OpMetrics b = runs.get(1).op(op);
        if (a != null && b != null && (a.count() < minCallsForRatio || b.count() < minCallsForRatio)) {
          a = null; // too few calls on one side for a ratio
        }
        boolean total = op.equals(names.get(names.size() - 1));
        row.add(a == null || b == null || (mixed && !total) ? "-" : ratio(a.opsPerSecond(), b.opsPerSecond()));
        row.add(a == null || b == null ? "-" : ratio(a.p50(), b.p50()));
        row.add(a == null || b == null ? "-" : ratio(a.p99(), b.p99()));
      }
      rows.add(row);
    }
    String vs = ratios ? " (ratios: " + runs.get(0).label() + " / " + runs.get(1).label() + ")" : "";
    if (mixed) {
      vs += "; in one mixed run an operation's ops/s is its share of the total";
    }
    if (ratios && minCallsForRatio > 0) {
      vs += String.format(Locale.ROOT, "; ratios only where both ran at least %,d calls", minCallsForRatio);
    }
    return new Table("Throughput and latency per operation" + vs, headers, rows);
  }

  static String num(double v) {
    return String.format(Locale.ROOT, "%,.0f", v);
  }

  static String ratio(double a, double b) {
    return b > 0 ? String.format(Locale.ROOT, "%.2f", a / b) : "-";
  }
}
