package org.indexfs.bench.scale;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.indexfs.bench.mdtest.Floor;
import org.indexfs.bench.mdtest.Machine;
import org.indexfs.bench.report.BenchReport;
import org.indexfs.bench.report.Curve;
import org.indexfs.bench.report.OpMetrics;
import org.indexfs.bench.report.ReportWriter;
import org.indexfs.bench.report.Table;
import org.indexfs.bench.report.TargetRun;
import org.indexfs.bench.scale.ScaleMain.Options;
import org.indexfs.bench.scale.ScaleMain.PhaseRun;
import org.indexfs.bench.scale.ScaleMain.SlotEntries;

/** The report of {@code bench scale}: tables, scaling curves and the balance prediction, written to disk. */
final class ScaleReport {
  private ScaleReport() {}

  static BenchReport build(Options o, List<PhaseRun> phases, List<SlotEntries> entries, Floor floor,
      List<BalancePrediction.Row> balance) throws IOException {
    BenchReport report = new BenchReport("IndexFS scaling over metadata slots, and load-balance prediction");
    report.fact("command", "bin/indexfs bench scale " + String.join(" ", o.args()));
    report.fact("date", Instant.now().toString());
    report.fact("machine", Machine.describe());
    report.fact("versions", Machine.versions());
    if (!phases.isEmpty()) {
      report.fact("workload", String.format(Locale.ROOT,
          "mdtest: %d threads x %,d empty files per layout, directory depth %d; phases create, stat, list, delete;"
              + " slot counts %s, one cluster each, run one after the other, one measured pass each after an"
              + " unrecorded quarter-size warm-up pass (private dirs) on the same cluster. A create is two RPCs"
              + " (create, then complete when the stream closes)",
          o.threads(), o.files(), o.depth(), o.slots()));
      report.fact("durability", "indexfs.wal.sync=true on every slot (RocksDB WAL fsynced before a mutation returns,"
          + " group commit per slot), as in bench compare's headline; audit log on (the default); data tier a local"
          + " directory (the files are empty and stay inline)");
      report.fact("what spreads", "each private directory gets a home slot by power of two choices, so that layout"
          + " spreads over the slots. The shared directory is created with its parents (mkdir -p) on its"
          + " parent's slot and spreads by GIGA+ splitting once a partition passes indexfs.split.threshold (2,000)"
          + " entries: its first entries all go to one slot, and the splits (SST export, ship, ingest) run during"
          + " the create phase");
      report.fact("machine limit", "all servers, the client and the benchmark threads share this machine's "
          + Runtime.getRuntime().availableProcessors() + " cores: more slots add parallel WALs (more concurrent"
          + " fsyncs) and RocksDB instances, not CPU, so speedups here are bounded by the cores, not by IndexFS;"
          + " see the prediction for what placement does on larger clusters");
      report.fact("CPU per operation", "CPU time of the servers' threads during a phase over its operations."
          + " 'handler' = the operation threads (indexfs-handler: path walk, permission checks, RocksDB, WAL"
          + " fsync); 'server' = handlers + the servers' Netty I/O threads (framing, protobuf) and background"
          + " threads; 'process' = the whole JVM, also the client and benchmark threads, ZooKeeper, and what no"
          + " Java thread accounts for (RocksDB's native flush/compaction threads, GC, JIT)");
      report.fact("floor", "raw RocksDB doing the same reads and writes as the server, same keys, values and"
          + " threads, plus the bare RPCs each operation needs through IndexFS's framing; for the phases that"
          + " write, the floor's writes are fsynced too (the sync floor: one RocksDB, as many writers as the"
          + " benchmark has threads, sharing fsyncs), as the servers here run wal.sync=true."
          + " 'client CPU' = the calling threads and the client's network thread");
    }
    report.fact("prediction", "no servers and no network: the calls of each workload fed through the servers' own"
        + " power-of-two-choices placement (Placement.choose, over entry counts refreshed every "
        + ScaleMain.REFRESH_EVERY_CALLS + " calls, each slot counting its own choices in between) and the GIGA+"
        + " index math (GigaIndex, PartitionBitmap; partition i on slot (zeroth + i) mod N). 'placement only': every"
        + " directory whole on its home slot (placement alone). 'splitting': a partition over "
        + o.splitThreshold() + " entries splits at once into GigaIndex.nextChild, up to N partitions (the servers"
        + " split in the background, one partition at a time). One operation per call at the"
        + " slot holding its entry (warm client cache); a listing counts once per partition; entries a trace"
        + " reads before creating are created first, uncounted, each directory by its own mkdir; seed " + ScaleMain.SEED);
    Map<Integer, List<PhaseRun>> bySlots = new LinkedHashMap<>();
    phases.forEach(p -> bySlots.computeIfAbsent(p.slots(), k -> new ArrayList<>()).add(p));
    bySlots.forEach((n, runs) -> report.run(targetRun(n, runs)));
    if (!phases.isEmpty()) {
      report.table(scalingTable(phases, floor));
      report.table(entriesTable(entries));
      report.curve(speedupCurve(bySlots));
      report.curve(cpuCurve(bySlots));
    }
    report.table(balanceTable(balance));
    report.curve(balanceCurve(balance));
    ReportWriter.write(report, o.out());
    return report;
  }

  static String label(int slots) {
    return slots == 1 ? "1 slot" : slots + " slots";
  }

  private static TargetRun targetRun(int slots, List<PhaseRun> runs) {
    List<OpMetrics> ops = new ArrayList<>();
    Histogram all = new Histogram(3_600_000_000L, 3);
    double seconds = 0;
    long errors = 0;
    for (PhaseRun p : runs) {
      ops.add(OpMetrics.of(p.op(), p.result().micros(), p.result().seconds(), p.result().errors()));
      all.add(p.result().micros());
      seconds += p.result().seconds();
      errors += p.result().errors();
    }
    return new TargetRun(label(slots), "indexfs://scale" + slots + "/ (" + slots + " servers in this process)",
        seconds, ops, OpMetrics.of("all phases", all, seconds, errors));
  }

  static Table scalingTable(List<PhaseRun> phases, Floor floor) {
    Map<String, Double> baseline = new LinkedHashMap<>();
    int first = phases.get(0).slots();
    phases.stream().filter(p -> p.slots() == first).forEach(p -> baseline.put(p.op(), p.result().opsPerSecond()));
    List<List<String>> rows = new ArrayList<>();
    for (String op : baseline.keySet()) {
      for (PhaseRun p : phases) {
        if (!p.op().equals(op)) {
          continue;
        }
        double ops = p.result().opsPerSecond();
        long n = Math.max(1, p.result().operations());
        Histogram h = p.result().micros();
        rows.add(List.of(op, String.valueOf(p.slots()), num(ops), ratio(ops, baseline.get(op)),
            h.getValueAtPercentile(50) + " / " + h.getValueAtPercentile(99),
            micros(p.cpu().serverNanos(), n), micros(p.cpu().handlerNanos(), n),
            micros(p.result().clientCpuNanos(), n), micros(p.cpu().processNanos(), n),
            String.format(Locale.ROOT, "%.2f", p.rpcs() / (double) n), ofFloor(op, ops, floor)));
      }
    }
    return new Table("Throughput, speedup over " + label(first) + ", latency, CPU time and RPCs per operation",
        List.of("phase", "slots", "ops/s", "speedup", "p50 / p99 µs", "server CPU µs/op", "handler CPU µs/op",
            "client CPU µs/op", "process CPU µs/op", "RPCs/op", "% of floor"), rows);
  }

  private static String ofFloor(String op, double ops, Floor floor) {
    Double f = floor == null ? null : floor.syncOpsPerSecondOf(op);
    return f == null || f <= 0 ? ""
        : String.format(Locale.ROOT, "%.1f %% of %s", 100 * ops / f, num(f));
  }

  static Table entriesTable(List<SlotEntries> entries) {
    List<List<String>> rows = new ArrayList<>();
    for (SlotEntries e : entries) {
      StringBuilder per = new StringBuilder();
      for (long v : e.perSlot()) {
        per.append(per.length() == 0 ? "" : " ").append(v);
      }
      rows.add(List.of(e.layout(), String.valueOf(e.slots()), per.toString(),
          String.format(Locale.ROOT, "%.2f", SlotLoadModel.maxOverMean(e.perSlot()))));
    }
    return new Table("Directory entries each slot gained in the create phase (counted; the directories and files"
        + " the phase made, wherever placement and splitting put them)",
        List.of("layout", "slots", "entries added per slot (slot 0, 1, ...)", "max / mean"), rows);
  }

  static Table balanceTable(List<BalancePrediction.Row> balance) {
    List<List<String>> rows = new ArrayList<>();
    for (BalancePrediction.Row r : balance) {
      rows.add(List.of(r.workload(), String.valueOf(r.slots()), two(r.today().operationImbalance()),
          two(r.splitting().operationImbalance()), two(r.today().entryImbalance()),
          two(r.splitting().entryImbalance()), String.format(Locale.ROOT, "%,d", r.today().directories()),
          String.format(Locale.ROOT, "%,d", r.today().largestDirectory()),
          String.format(Locale.ROOT, "%,d", r.splitting().splits())));
    }
    return new Table("Predicted load balance: busiest slot's share of operations (and of entries, when the"
        + " namespace was largest) over the mean; 1.00 is even, N is everything on one slot",
        List.of("workload", "slots", "ops max/mean, placement only", "ops max/mean with splitting",
            "entries max/mean, placement only", "entries max/mean with splitting", "directories", "largest directory (entries)", "splits"), rows);
  }

  private static Curve speedupCurve(Map<Integer, List<PhaseRun>> bySlots) {
    List<Double> xs = bySlots.keySet().stream().map(Integer::doubleValue).toList();
    Map<String, List<Double>> series = new LinkedHashMap<>();
    List<PhaseRun> base = bySlots.values().iterator().next();
    for (PhaseRun b : base) {
      List<Double> ys = new ArrayList<>();
      for (List<PhaseRun> runs : bySlots.values()) {
        double ops = runs.stream().filter(p -> p.op().equals(b.op())).mapToDouble(p -> p.result().opsPerSecond())
            .findFirst().orElse(0);
        ys.add(b.result().opsPerSecond() > 0 ? ops / b.result().opsPerSecond() : 0);
      }
      series.put(b.op(), ys);
    }
    return new Curve("scaling.png", "Speedup over " + label(bySlots.keySet().iterator().next()) + " per phase",
        "metadata slots (servers)", "throughput / throughput at the fewest slots", xs, series, false);
  }

  private static Curve cpuCurve(Map<Integer, List<PhaseRun>> bySlots) {
    List<Double> xs = bySlots.keySet().stream().map(Integer::doubleValue).toList();
    Map<String, List<Double>> series = new LinkedHashMap<>();
    for (List<PhaseRun> runs : bySlots.values()) {
      for (PhaseRun p : runs) {
        series.computeIfAbsent(p.op(), k -> new ArrayList<>())
            .add(p.cpu().serverNanos() / 1e3 / Math.max(1, p.result().operations()));
      }
    }
    return new Curve("cpu-per-op.png", "Server CPU time per operation", "metadata slots (servers)",
        "server CPU µs / operation", xs, series, false);
  }

  private static Curve balanceCurve(List<BalancePrediction.Row> balance) {
    List<Double> xs = balance.stream().map(r -> (double) r.slots()).distinct().toList();
    Map<String, List<Double>> series = new LinkedHashMap<>();
    for (BalancePrediction.Row r : balance) {
      series.computeIfAbsent(r.workload() + ", placement only", k -> new ArrayList<>()).add(r.today().operationImbalance());
      series.computeIfAbsent(r.workload() + ", splitting", k -> new ArrayList<>())
          .add(r.splitting().operationImbalance());
    }
    return new Curve("balance.png", "Predicted busiest slot's share of operations over the mean",
        "metadata slots (servers)", "max / mean operations per slot", xs, series, true);
  }

  private static String micros(long nanos, long ops) {
    return String.format(Locale.ROOT, "%.1f", nanos / 1e3 / ops);
  }

  private static String num(double v) {
    return String.format(Locale.ROOT, "%,.0f", v);
  }

  private static String ratio(double a, double b) {
    return b > 0 ? String.format(Locale.ROOT, "%.2fx", a / b) : "n/a";
  }

  private static String two(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }
}
