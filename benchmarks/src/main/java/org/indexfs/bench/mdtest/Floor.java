package org.indexfs.bench.mdtest;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.indexfs.bench.report.OpMetrics;
import org.indexfs.bench.report.Table;
import org.indexfs.bench.report.TargetRun;

/**
 * The floor of each mdtest phase (DESIGN §10): what the operation cannot cost less than on this
 * machine — raw RocksDB doing exactly the server's reads and writes ({@link KvBench}) plus the bare
 * RPCs it needs through IndexFS's framing ({@link RpcEcho}). The RPCs use the benchmark's threads;
 * RocksDB gets as many threads as the machine has cores (its best: more would only contend, and a
 * server runs its calls on about that many threads too). Their costs add: floor ops/s = 1 / (1 / kv
 * + rpcs / echo), and CPU per op likewise.
 */
public record Floor(Map<String, KvBench.Result> kv, RpcEcho.Result echo) {
  /** RPCs per operation with a warm cache: create + close is two; a listing page holds many entries. */
  static double rpcsPerOp(String phase) {
    return switch (phase) {
      case "create" -> 2;
      case "list" -> 1.0 / 1000;
      default -> 1;
    };
  }

  public static Floor run(Path dir, int threads, int perThread, AtomicLong progress) throws IOException {
    int kvThreads = kvThreads(threads);
    Map<String, KvBench.Result> kv = KvBench.run(dir, kvThreads, threads * perThread / kvThreads, progress);
    RpcEcho.Result echo = RpcEcho.run(threads, perThread, progress);
    return new Floor(kv, echo);
  }

  /** Calls {@link #run} makes, for a progress bar. */
  public static long calls(int threads, int perThread) {
    int kvThreads = kvThreads(threads);
    long kvKeys = (long) kvThreads * (threads * perThread / kvThreads);
    long n = (long) threads * perThread;
    return 3 * kvKeys + kvThreads * kvKeys + n;
  }

  private static int kvThreads(int threads) {
    return Math.max(1, Math.min(threads, Runtime.getRuntime().availableProcessors()));
  }

  /** The floor of a report row such as {@code create (shared dir)}, or null for a phase without one. */
  public Double opsPerSecondOf(String op) {
    String phase = phaseOf(op);
    return kv.containsKey(phase) ? opsPerSecond(phase) : null;
  }

  public double opsPerSecond(String phase) {
    KvBench.Result r = kv.get(phase);
    double kvSeconds = 1 / r.opsPerSecond();
    double rpcSeconds = rpcsPerOp(phase) / echo.callsPerSecond();
    return 1 / (kvSeconds + rpcSeconds);
  }

  public double cpuMicrosPerOp(String phase) {
    return kv.get(phase).cpuMicrosPerOp() + rpcsPerOp(phase) * echo.cpuMicrosPerCall();
  }

  private static String phaseOf(String op) {
    return op.substring(0, op.indexOf(' '));
  }

  Table table(TargetRun sync, TargetRun async, CompareMain.Subject syncCpu, CompareMain.Subject asyncCpu) {
    List<List<String>> rows = new ArrayList<>();
    for (OpMetrics m : async.ops()) {
      String phase = phaseOf(m.op());
      if (!kv.containsKey(phase)) {
        continue;
      }
      double floorOps = opsPerSecond(phase);
      double floorCpu = cpuMicrosPerOp(phase);
      OpMetrics s = sync.op(m.op());
      double asyncUs = asyncCpu.serverMicros(m.op()) + asyncCpu.clientMicros(m.op());
      double syncUs = syncCpu.serverMicros(m.op()) + syncCpu.clientMicros(m.op());
      rows.add(List.of(m.op(), fmt(kv.get(phase).opsPerSecond()), fmt(floorOps),
          String.format(Locale.ROOT, "%.1f", floorCpu),
          fmt(m.opsPerSecond()), pct(m.opsPerSecond(), floorOps), String.format(Locale.ROOT, "%.1f", asyncUs),
          pct(floorCpu, asyncUs),
          fmt(s.opsPerSecond()), pct(s.opsPerSecond(), floorOps), String.format(Locale.ROOT, "%.1f", syncUs)));
    }
    return new Table(String.format(Locale.ROOT, "IndexFS as a share of the floor: raw RocksDB doing the same"
            + " reads and writes + bare RPCs through the same framing (%,.0f calls/s, %.1f µs CPU per call)",
            echo.callsPerSecond(), echo.cpuMicrosPerCall()),
        List.of("phase", "raw KV ops/s", "floor ops/s", "floor CPU µs/op", "IndexFS async ops/s", "% of floor",
            "async CPU µs/op", "floor CPU / async CPU", "IndexFS sync ops/s", "% of floor", "sync CPU µs/op"), rows);
  }

  private static String fmt(double v) {
    return String.format(Locale.ROOT, "%,.0f", v);
  }

  private static String pct(double a, double b) {
    return b > 0 ? String.format(Locale.ROOT, "%.0f %%", 100 * a / b) : "n/a";
  }
}
