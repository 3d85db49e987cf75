package org.indexfs.bench.cluster;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.indexfs.bench.report.BenchReport;
import org.indexfs.bench.report.Curve;
import org.indexfs.bench.report.OpMetrics;
import org.indexfs.bench.report.Table;
import org.indexfs.bench.report.TargetRun;

/**
 * The tables and charts of {@code bench cluster}: per phase and configuration the throughput,
 * scaling and ratios; the proof the emulation held (quotas, round trips) and that the clients
 * were not the bottleneck; the model against the measurement and beyond it.
 */
final class ClusterReport {
  private ClusterReport() {}

  static void tables(BenchReport report, ClusterOptions o, List<Config> configs, List<Measurement> ms) {
    Map<Summary.Key, Summary> s = Summary.of(ms.stream().filter(m -> m.round() >= 0).toList());
    List<String> phases = Summary.phases(ms.stream().filter(m -> m.round() >= 0).toList());
    report.table(scaling(phases, configs, s));
    for (TargetRun r : headlineRuns(phases, configs, s, o)) {
      report.run(r);
    }
    report.table(quotas(configs, s, o));
    List<Measurement> timed = ms.stream().filter(m -> m.round() >= 0).toList();
    report.fact("validity", HostTables.validity(timed));
    report.fact("client headroom", HostTables.clientHeadroom(timed));
    report.table(HostTables.hosts(configs, timed));
    report.fact("clients", clientVerdict(phases, configs, s, ms));
    report.table(clients(phases, configs, s, ms));
    report.table(calls(phases, configs, s));
    report.table(rounds(phases, configs, s));
    for (double slice : slices(o)) {
      scalingCurves(phases, configs, s, slice, o).forEach(report::curve);
    }
  }

  static List<Double> slices(ClusterOptions o) {
    List<Double> out = new ArrayList<>(List.of(o.slice()));
    if (!o.smallSlots().isEmpty()) {
      out.add(o.smallSlice());
    }
    return out;
  }

  /** The same system on one slice of the same size: the base of speedup and efficiency. */
  private static Summary baseline(Map<Summary.Key, Summary> s, Config c, String phase) {
    Config one = c.indexfs() ? Config.indexfs(1, c.slice()) : Config.nameNode(c.lock(), 1, c.slice());
    return s.get(new Summary.Key(one, phase));
  }

  private static Summary nameNode(Map<Summary.Key, Summary> s, NameNodeHost.Lock lock, int slices, double slice,
      String phase) {
    return s.get(new Summary.Key(Config.nameNode(lock, slices, slice), phase));
  }

  static Table scaling(List<String> phases, List<Config> configs, Map<Summary.Key, Summary> s) {
    List<List<String>> rows = new ArrayList<>();
    for (String phase : phases) {
      for (Config c : configs) {
        Summary m = s.get(new Summary.Key(c, phase));
        if (m == null) {
          continue;
        }
        Summary one = baseline(s, c, phase);
        double x = m.opsPerSecond();
        double x1 = one == null ? 0 : one.opsPerSecond();
        List<String> row = new ArrayList<>(List.of(phase, c.system(), String.valueOf(c.slices()), cpus(c.cpus()),
            num(x), x1 > 0 ? two(x / x1) + "×" : "-", x1 > 0 ? two(x / (c.slices() * x1)) : "-",
            m.micros.getValueAtPercentile(50) + " / " + m.micros.getValueAtPercentile(99),
            String.format(Locale.ROOT, "%.0f", m.serverMicrosPerOp()),
            String.format(Locale.ROOT, "%.0f %% / %.0f %%", 100 * m.meanUtilization(), 100 * m.maxUtilization()),
            m.rpcsPerOp(), c.indexfs() ? pct(m.crossSlotShare()) : "-"));
        for (NameNodeHost.Lock lock : NameNodeHost.Lock.values()) {
          Summary nn1 = nameNode(s, lock, 1, c.slice(), phase);
          row.add(c.indexfs() && nn1 != null ? two(x / nn1.opsPerSecond()) + "×" : "-");
        }
        for (NameNodeHost.Lock lock : NameNodeHost.Lock.values()) {
          Summary nnN = nameNode(s, lock, c.slices(), c.slice(), phase);
          row.add(c.indexfs() && nnN != null ? two(x / nnN.opsPerSecond()) + "×" : "-");
        }
        if (m.errors > 0) {
          row.set(4, row.get(4) + " (" + m.errors + " errors)");
        }
        rows.add(row);
      }
    }
    return new Table("Throughput and scaling per phase and configuration (speedup and efficiency against the same"
        + " system on one slice of the same size; efficiency = ops/s ÷ (N × one slice's ops/s); ratios IndexFS ÷"
        + " NameNode; server CPU summed over the system's hosts; slice use = CPU over what the slices allowed,"
        + " mean / busiest host; RPCs: IndexFS's counted by its slots, the NameNode's by its clients' Hadoop IPC;"
        + " cross-slot = server-to-server calls and redirects over the clients' RPCs)",
        List.of("phase", "system", "slices", "CPUs", "ops/s", "speedup", "efficiency", "p50 / p99 µs",
            "server CPU µs/op", "slice use", "RPCs/op", "cross-slot", "÷ NN 1 slice (global)",
            "÷ NN 1 slice (fine-grained)", "÷ NN N slices (global)", "÷ NN N slices (fine-grained)"), rows);
  }

  /** The biggest IndexFS against the NameNode on one slice and on as many, for the report's side-by-side and bars. */
  static List<TargetRun> headlineRuns(List<String> phases, List<Config> configs, Map<Summary.Key, Summary> s,
      ClusterOptions o) {
    int n = o.slots().get(o.slots().size() - 1);
    List<Config> shown = new ArrayList<>(List.of(Config.indexfs(n, o.slice())));
    for (NameNodeHost.Lock l : NameNodeHost.Lock.values()) {
      shown.add(Config.nameNode(l, 1, o.slice()));
      shown.add(Config.nameNode(l, n, o.slice()));
    }
    List<TargetRun> runs = new ArrayList<>();
    for (Config c : shown) {
      if (!configs.contains(c)) {
        continue;
      }
      List<OpMetrics> ops = new ArrayList<>();
      Histogram all = new Histogram(3_600_000_000L, 3);
      double seconds = 0;
      long errors = 0;
      for (String p : phases) {
        Summary m = s.get(new Summary.Key(c, p));
        if (m != null) {
          ops.add(OpMetrics.of(p, m.micros, m.seconds, m.errors));
          all.add(m.micros);
          seconds += m.seconds;
          errors += m.errors;
        }
      }
      runs.add(new TargetRun(c.label(), c.indexfs() ? "indexfs://" + c.target() + "/" : "hdfs://" + c.target() + ":8020",
          seconds, ops, OpMetrics.of("all phases", all, seconds, errors)));
    }
    return runs;
  }

  static Table quotas(List<Config> configs, Map<Summary.Key, Summary> s, ClusterOptions o) {
    List<List<String>> rows = new ArrayList<>();
    for (Config c : configs) {
      double maxRound = 0;
      double util = 0;
      long periods = 0;
      long throttled = 0;
      long runs = 0;
      for (Summary m : s.values()) {
        if (m.config.equals(c)) {
          maxRound = Math.max(maxRound, m.maxRoundUtilization);
          util = Math.max(util, m.maxUtilization());
          periods += m.periods;
          throttled += m.throttledPeriods;
          runs += m.perRound.size();
        }
      }
      rows.add(List.of(c.label(), String.valueOf(c.serverHosts().size()), cpus(c.quotaPerHost()),
          String.valueOf(runs), String.format(Locale.ROOT, "%.1f %%", 100 * maxRound),
          String.format(Locale.ROOT, "%.1f %%", 100 * util),
          periods == 0 ? "-" : String.format(Locale.ROOT, "%.0f %%", 100.0 * throttled / periods)));
    }
    return new Table(String.format(Locale.ROOT, "Quotas held: each host's CPU (its cgroup's accounting) over what its"
            + " slice allowed during the timed runs (CFS period %d µs). The kernel hands out a quota in slices of"
            + " %d µs per core and throttles at the next check, so over a short run a host may show a few per cent"
            + " above 100 %%; a run counts as over quota past its periods' quota plus one such slice per core."
            + " Throttled = periods in which a host used its whole quota", o.periodMicros(), Measurement.bandwidthSliceMicros()),
        List.of("configuration", "server hosts", "quota per host (CPUs)", "timed runs",
            "busiest host, worst run", "busiest host, all runs", "periods throttled"), rows);
  }

  /**
   * Were the clients the bottleneck? Per phase, at each system's largest configuration: the client
   * hosts' CPU, the machine's idle time, the servers' use of their slices; and the client check
   * (twice the threads) beside the normal run.
   */
  static Table clients(List<String> phases, List<Config> configs, Map<Summary.Key, Summary> s, List<Measurement> ms) {
    List<List<String>> rows = new ArrayList<>();
    Map<String, Config> largest = new LinkedHashMap<>();
    for (Config c : configs) {
      largest.merge(c.system() + "@" + c.slice(), c, (a, b) -> b.slices() > a.slices() ? b : a);
    }
    Map<Summary.Key, Summary> checks = Summary.of(ms.stream().filter(m -> m.round() < 0).toList());
    for (Config c : largest.values()) {
      for (String phase : phases) {
        Summary m = s.get(new Summary.Key(c, phase));
        if (m == null) {
          continue;
        }
        String check = "-";
        for (Summary k : checks.values()) {
          if (k.config.equals(c) && k.phase.startsWith(phase + " ×")) {
            check = String.format(Locale.ROOT, "%s ops/s (%+.0f %%)", num(k.opsPerSecond()),
                100 * (k.opsPerSecond() / m.opsPerSecond() - 1));
          }
        }
        rows.add(List.of(c.label(), phase, num(m.opsPerSecond()),
            String.format(Locale.ROOT, "%.0f %% / %.0f %%", 100 * m.meanUtilization(), 100 * m.maxUtilization()),
            String.format(Locale.ROOT, "%.0f %%", 100 * m.throttledShare()),
            String.format(Locale.ROOT, "%.2f", m.clientCores()), String.format(Locale.ROOT, "%.0f", m.clientMicrosPerOp()),
            String.format(Locale.ROOT, "%.0f %%", 100 * m.machineIdle()), check));
      }
    }
    return new Table("The clients were not the bottleneck when the servers used their whole slices while the machine"
        + " still had idle CPU, and twice the client threads bring no more: per phase at each system's largest"
        + " configuration",
        List.of("configuration", "phase", "ops/s", "servers' slice use (mean / busiest)", "periods throttled",
            "client hosts' CPU (cores)", "client CPU µs/op", "machine idle", "twice the client threads"), rows);
  }

  /** The profile of IndexFS's calls: per client operation, the calls its slots answered, by kind. */
  static Table calls(List<String> phases, List<Config> configs, Map<Summary.Key, Summary> s) {
    List<List<String>> rows = new ArrayList<>();
    for (String phase : phases) {
      for (Config c : configs) {
        Summary m = s.get(new Summary.Key(c, phase));
        if (m == null || !c.indexfs()) {
          continue;
        }
        List<Map.Entry<String, Long>> kinds = new ArrayList<>(m.callsByKind.entrySet());
        kinds.sort((a, b) -> Long.compare(b.getValue(), a.getValue()));
        StringBuilder per = new StringBuilder();
        for (Map.Entry<String, Long> k : kinds) {
          if (m.perOp(k.getValue()) >= 0.005) {
            per.append(per.length() == 0 ? "" : ", ").append(k.getKey()).append(' ').append(two(m.perOp(k.getValue())));
          }
        }
        rows.add(List.of(phase, c.label(), per.toString(), two(m.perOp(m.peerCalls)),
            String.format(Locale.ROOT, "%.3f", m.perOp(m.leaseRenewals))));
      }
    }
    return new Table("IndexFS's calls per client operation, by kind, as its slots answered them (the profile:"
        + " partition, renameIn, referenced and quota are calls between slots; '(redirected)' calls were answered"
        + " 'continue at another slot')",
        List.of("phase", "configuration", "calls per operation", "between slots", "lease renewals"), rows);
  }

  /**
   * The verdict on the clients: a phase at a system's largest configuration counts as server-bound
   * when its servers used at least 90 % of their slices, or twice the client threads brought at most
   * 10 % more.
   */
  static String clientVerdict(List<String> phases, List<Config> configs, Map<Summary.Key, Summary> s,
      List<Measurement> ms) {
    Map<Summary.Key, Summary> checks = Summary.of(ms.stream().filter(m -> m.round() < 0).toList());
    Map<String, Config> largest = new LinkedHashMap<>();
    for (Config c : configs) {
      largest.merge(c.system() + "@" + c.slice(), c, (a, b) -> b.slices() > a.slices() ? b : a);
    }
    List<String> unproven = new ArrayList<>();
    int proven = 0;
    for (Config c : largest.values()) {
      for (String phase : phases) {
        Summary m = s.get(new Summary.Key(c, phase));
        if (m == null) {
          continue;
        }
        boolean saturated = m.meanUtilization() >= 0.9;
        boolean noGain = checks.values().stream().anyMatch(k -> k.config.equals(c) && k.phase.startsWith(phase + " ×")
            && k.opsPerSecond() <= 1.10 * m.opsPerSecond());
        if (saturated || noGain) {
          proven++;
        } else {
          unproven.add(c.label() + " " + phase + String.format(Locale.ROOT, " (servers at %.0f %% of their slices)",
              100 * m.meanUtilization()));
        }
      }
    }
    return unproven.isEmpty()
        ? "not the bottleneck: in every phase at each system's largest configuration (" + proven + ") the servers used"
            + " at least 90 % of their slices, or twice the client threads brought at most 10 % more"
        : "not shown to be free of it in " + unproven.size() + " of " + (proven + unproven.size()) + " phases at the"
            + " largest configurations (servers under 90 % of their slices and no client check, or one that gained"
            + " more than 10 %): " + String.join("; ", unproven);
  }

  static Table rounds(List<String> phases, List<Config> configs, Map<Summary.Key, Summary> s) {
    List<List<String>> rows = new ArrayList<>();
    for (String phase : phases) {
      for (Config c : configs) {
        Summary m = s.get(new Summary.Key(c, phase));
        if (m == null) {
          continue;
        }
        StringBuilder per = new StringBuilder();
        for (double v : m.perRound) {
          per.append(per.length() == 0 ? "" : " ").append(num(v));
        }
        double min = m.perRound.stream().mapToDouble(Double::doubleValue).min().orElse(0);
        double max = m.perRound.stream().mapToDouble(Double::doubleValue).max().orElse(0);
        rows.add(List.of(phase, c.label(), per.toString(), max > 0 ? pct((max - min) / max) : "-",
            String.valueOf(m.splits), String.format(Locale.ROOT, "%.3f", m.perOp(m.zkRequests))));
      }
    }
    return new Table("Every round (ops/s), the spread between the fastest and slowest, GIGA+ splits during the phase"
        + " and ZooKeeper requests per operation",
        List.of("phase", "configuration", "ops/s per round", "spread", "splits", "ZooKeeper requests/op"), rows);
  }

  /**
   * Ops/s against slices, one line per system: the headline chart ({@code scaling.png}, the mixed
   * trace, or the first phase without one) and one per phase; the smaller slice's apart.
   */
  static List<Curve> scalingCurves(List<String> phases, List<Config> configs, Map<Summary.Key, Summary> s,
      double slice, ClusterOptions o) {
    boolean main = slice == o.slice();
    List<Curve> out = new ArrayList<>();
    String headline = phases.stream().filter(p -> p.startsWith("mixed trace")).findFirst().orElse(phases.get(0));
    for (String phase : phases) {
      String slug = phase.replaceAll("[^A-Za-z0-9]+", "-").replaceAll("-$", "");
      String file = (phase.equals(headline) && main ? "scaling" : "scaling-" + slug)
          + (main ? "" : "-small-slice") + ".png";
      Curve c = scalingCurve(phase, configs, s, slice, main ? o.slots() : o.smallSlots(), file);
      if (c != null) {
        out.add(phase.equals(headline) ? 0 : out.size(), c); // the headline first
      }
    }
    return out;
  }

  private static Curve scalingCurve(String phase, List<Config> configs, Map<Summary.Key, Summary> s, double slice,
      List<Integer> ns, String file) {
    List<Double> xs = ns.stream().map(Integer::doubleValue).toList();
    Map<String, List<Double>> series = new LinkedHashMap<>();
    for (String system : configs.stream().map(Config::system).distinct().toList()) {
      List<Double> ys = new ArrayList<>();
      for (int n : ns) {
        Config c = system.equals("IndexFS") ? Config.indexfs(n, slice)
            : Config.nameNode(system.contains("fine") ? NameNodeHost.Lock.FINE_GRAINED : NameNodeHost.Lock.GLOBAL, n,
                slice);
        Summary m = s.get(new Summary.Key(c, phase));
        if (m == null || m.opsPerSecond() <= 0) {
          break; // a system measured at fewer slice counts gets no line here
        }
        ys.add(m.opsPerSecond());
      }
      if (ys.size() == ns.size()) {
        series.put(system, ys);
      }
    }
    return series.isEmpty() ? null : new Curve(file, phase + ": throughput against slices of " + cpus(slice)
        + " CPU (IndexFS: N slots; NameNode: one process with N slices' quota)", "slices",
        "operations / second", xs, series, true);
  }

  static String cpus(double v) {
    return String.format(Locale.ROOT, v >= 1 ? "%.1f" : "%.2f", v).replaceAll("(\\.\\d*?)0+$", "$1")
        .replaceAll("\\.$", "");
  }

  static String num(double v) {
    return String.format(Locale.ROOT, "%,.0f", v);
  }

  static String two(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }

  static String pct(double v) {
    return String.format(Locale.ROOT, "%.1f %%", 100 * v);
  }
}
