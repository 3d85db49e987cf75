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
 *
 * <p>The sync floor ({@code kvSync}) is the floor of {@code wal.sync=true}: the same writes, each
 * fsynced before it returns, from as many threads as the benchmark has callers — an IndexFS server
 * has that many mutations in flight, and RocksDB's own group commit shares fsyncs among them.
 * Phases that write nothing (stat, list) have the one floor.
 */
public record Floor(Map<String, KvBench.Result> kv, Map<String, KvBench.Result> kvSync, RpcEcho.Result echo) {
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
    Map<String, KvBench.Result> kvSync = KvBench.run(dir.resolveSibling(dir.getFileName() + "-sync"), threads,
        perThread, progress, true);
    RpcEcho.Result echo = RpcEcho.run(threads, perThread, progress);
    return new Floor(kv, kvSync, echo);
  }

  /** Calls {@link #run} makes, for a progress bar. */
  public static long calls(int threads, int perThread) {
    int kvThreads = kvThreads(threads);
    long kvKeys = (long) kvThreads * (threads * perThread / kvThreads);
    long n = (long) threads * perThread;
    return 3 * kvKeys + kvThreads * kvKeys + 2 * n + n;
  }

  private static int kvThreads(int threads) {
    return Math.max(1, Math.min(threads, Runtime.getRuntime().availableProcessors()));
  }

  /** The floor of a report row such as {@code create (shared dir)}, or null for a phase without one. */
  public Double opsPerSecondOf(String op) {
    String phase = phaseOf(op);
    return kv.containsKey(phase) ? opsPerSecond(phase) : null;
  }

  /** As above, with the WAL fsynced (the floor of {@code wal.sync=true}). */
  public Double syncOpsPerSecondOf(String op) {
    String phase = phaseOf(op);
    return kv.containsKey(phase) ? opsPerSecond(phase, true) : null;
  }

  public double opsPerSecond(String phase) {
    return opsPerSecond(phase, false);
  }

  public double opsPerSecond(String phase, boolean sync) {
    KvBench.Result r = kvOf(phase, sync);
    double kvSeconds = 1 / r.opsPerSecond();
    double rpcSeconds = rpcsPerOp(phase) / echo.callsPerSecond();
    return 1 / (kvSeconds + rpcSeconds);
  }

  public double cpuMicrosPerOp(String phase) {
    return cpuMicrosPerOp(phase, false);
  }

  public double cpuMicrosPerOp(String phase, boolean sync) {
    return kvOf(phase, sync).cpuMicrosPerOp() + rpcsPerOp(phase) * echo.cpuMicrosPerCall();
  }

  private KvBench.Result kvOf(String phase, boolean sync) {
    return sync && kvSync.containsKey(phase) ? kvSync.get(phase) : kv.get(phase);
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

  /** IndexFS with {@code wal.sync=true} against the floor of the same fsynced writes, for the phases that write. */
  Table syncTable(TargetRun sync, CompareMain.Subject syncCpu, int writers) {
    List<List<String>> rows = new ArrayList<>();
    for (OpMetrics s : sync.ops()) {
      String phase = phaseOf(s.op());
      if (!kvSync.containsKey(phase)) {
        continue;
      }
      double floorOps = opsPerSecond(phase, true);
      double floorCpu = cpuMicrosPerOp(phase, true);
      double syncUs = syncCpu.serverMicros(s.op()) + syncCpu.clientMicros(s.op());
      rows.add(List.of(s.op(), fmt(kvSync.get(phase).opsPerSecond()), fmt(floorOps),
          String.format(Locale.ROOT, "%.1f", floorCpu), fmt(s.opsPerSecond()), pct(s.opsPerSecond(), floorOps),
          String.format(Locale.ROOT, "%.1f", syncUs), pct(floorCpu, syncUs)));
    }
    return new Table(String.format(Locale.ROOT, "IndexFS (wal.sync=true) as a share of the sync floor: the same"
            + " reads and writes with every write fsynced before it returns, from %d writers sharing fsyncs"
            + " (RocksDB's group commit), + the same bare RPCs", writers),
        List.of("phase", "raw KV ops/s (fsynced)", "sync floor ops/s", "sync floor CPU µs/op", "IndexFS sync ops/s",
            "% of sync floor", "sync CPU µs/op", "sync floor CPU / sync CPU"), rows);
  }

  private static String fmt(double v) {
    return String.format(Locale.ROOT, "%,.0f", v);
  }

  private static String pct(double a, double b) {
    return b > 0 ? String.format(Locale.ROOT, "%.0f %%", 100 * a / b) : "n/a";
  }
}
