package org.indexfs.bench.scale;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.indexfs.bench.ThreadCpu;
import org.indexfs.bench.WorkDirs;
import org.indexfs.bench.mdtest.Floor;
import org.indexfs.bench.mdtest.MdtestWorkload.Phase;
import org.indexfs.bench.mdtest.MdtestWorkload.PhaseResult;
import org.indexfs.bench.mdtest.MdtestWorkload;
import org.indexfs.bench.replay.ProgressBar;
import org.indexfs.bench.replay.TraceGenerator;
import org.indexfs.bench.report.BenchReport;
import org.indexfs.bench.report.ReportMain;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.server.local.LocalCluster;

/**
 * {@code bin/indexfs bench scale}: the mdtest workload on 1, 2, 4, 8 ... metadata servers in this
 * process (throughput, speedup, server CPU time per operation, entries per slot), then the
 * load-balance prediction for clusters larger than this machine ({@link BalancePrediction}).
 */
public final class ScaleMain {
  public static final String USAGE = """
      Usage: indexfs bench scale [--slots 1,2,4,8] [--threads T] [--files N] [--quick] [--out DIR]
                                 [--predict-slots 8,16,32,64,128] [--trace-lines N | --trace FILE ...]
                                 [--prediction-only] [--no-progress]
        --slots LIST        slot counts to run, one cluster each, in this process (default 1,2,4,8)
        --threads T         client threads (default 16)
        --files N           files per thread per layout (default 1000)
        --depth D           directories above the test directories (default 3)
        --quick             8 threads x 300 files, a 200,000-call trace (a few minutes on 2 cores)
        --predict-slots L   slot counts of the load-balance prediction (default 8,16,32,64,128)
        --trace-lines N     length of the generated LinkedIn-mix trace for the prediction (default 1,000,000)
        --trace FILE        predict with this NameNode audit log instead (repeatable; plain or .gz)
        --split-threshold E GIGA+ split threshold of the model, entries per partition (default 2000)
        --prediction-only   skip the in-process runs
        --out DIR           report directory (default bench-report/scale)
      """;

  static final long SEED = 1;
  /** Placement views refresh every 3 s; the generated trace runs at about 1,000 calls per second. */
  static final long REFRESH_EVERY_CALLS = 3_000;

  record Options(List<Integer> slots, int threads, int files, int depth, List<Integer> predictSlots,
      long traceLines, List<Path> traces, int splitThreshold, boolean runClusters, Path out, boolean progress,
      List<String> args) {}

  /** One timed phase at one slot count, with the CPU its threads used and the RPCs the client sent. */
  record PhaseRun(int slots, String op, PhaseResult result, long rpcs) {
    ThreadCpu.Sample cpu() {
      return result.cpu();
    }
  }

  /** Entries each slot gained in a layout's create phase (RocksDB's estimate). */
  record SlotEntries(int slots, String layout, long[] perSlot) {}

  private ScaleMain() {}

  static Options parse(String[] args) {
    List<Integer> slots = List.of(1, 2, 4, 8);
    int threads = 16;
    int files = 1000;
    int depth = 3;
    List<Integer> predict = List.of(8, 16, 32, 64, 128);
    long traceLines = 1_000_000;
    List<Path> traces = new ArrayList<>();
    int threshold = 2000;
    boolean run = true;
    Path out = Path.of("bench-report", "scale");
    boolean progress = true;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--quick" -> {
          threads = 8;
          files = 300;
          traceLines = 200_000;
        }
        case "--slots" -> slots = intList(args[++i]);
        case "--threads" -> threads = Integer.parseInt(args[++i]);
        case "--files" -> files = Integer.parseInt(args[++i]);
        case "--depth" -> depth = Integer.parseInt(args[++i]);
        case "--predict-slots" -> predict = intList(args[++i]);
        case "--trace-lines" -> traceLines = Long.parseLong(args[++i]);
        case "--trace" -> traces.add(Path.of(args[++i]));
        case "--split-threshold" -> threshold = Integer.parseInt(args[++i]);
        case "--prediction-only" -> run = false;
        case "--out" -> out = Path.of(args[++i]);
        case "--no-progress" -> progress = false;
        default -> throw new IllegalArgumentException("Unknown argument " + args[i] + "\n" + USAGE);
      }
    }
    if (slots.stream().anyMatch(n -> n < 1) || predict.stream().anyMatch(n -> n < 1)) {
      throw new IllegalArgumentException("Slot counts must be positive\n" + USAGE);
    }
    return new Options(slots, threads, files, depth, predict, traceLines, List.copyOf(traces), threshold, run, out,
        progress, List.of(args));
  }

  static List<Integer> intList(String csv) {
    return Arrays.stream(csv.split(",")).map(String::trim).map(Integer::parseInt).toList();
  }

  public static void main(String[] args) throws Exception {
    ReportMain.run(args, ScaleMain::parse, ScaleMain::run, Options::out, Integer.MAX_VALUE);
  }

  static BenchReport run(Options o) throws IOException {
    if (!ThreadCpu.supported()) {
      System.err.println("This JVM does not measure per-thread CPU time: CPU columns will read 0.");
    }
    Path work = Files.createTempDirectory("indexfs-scale-");
    try {
      List<PhaseRun> phases = new ArrayList<>();
      List<SlotEntries> entries = new ArrayList<>();
      Floor floor = null;
      if (o.runClusters()) {
        AtomicLong done = new AtomicLong();
        try (ProgressBar bar = ProgressBar.open(o.progress(), "scale", totalCalls(o), done::get)) {
          for (int n : o.slots()) {
            runSlots(o, n, work.resolve("slots-" + n), phases, entries, done);
          }
          floor = Floor.run(work.resolve("kv"), o.threads(), o.files(), done);
        }
      }
      List<BalancePrediction.Row> balance = predict(o, work);
      return ScaleReport.build(o, phases, entries, floor, balance);
    } finally {
      WorkDirs.deleteTree(work);
    }
  }

  /** Calls of the in-process runs, for the progress bar: listing counts every entry returned. */
  static long totalCalls(Options o) {
    long privateDirs = MdtestWorkload.calls(new MdtestWorkload.Settings(o.threads(), o.files(), false, o.depth()));
    long sharedDir = MdtestWorkload.calls(new MdtestWorkload.Settings(o.threads(), o.files(), true, o.depth()));
    return o.slots().size() * (privateDirs + sharedDir) + Floor.calls(o.threads(), o.files());
  }

  private static void runSlots(Options o, int n, Path dir, List<PhaseRun> phases, List<SlotEntries> entries,
      AtomicLong done) throws IOException {
    try (LocalCluster cluster = LocalCluster.builder(dir).clusterName("scale" + n).servers(n)
        .set(IndexFsConfig.WAL_SYNC.name(), "true").start();
        FileSystem fs = client(cluster)) {
      // Unrecorded, a quarter the size: JIT, the client's cache and the placement views warm up, so
      // the first slot count measured is not charged for them.
      new MdtestWorkload(fs, new org.apache.hadoop.fs.Path("/warm-up"), new MdtestWorkload.Settings(o.threads(),
          Math.max(1, o.files() / 4), false, o.depth()), new AtomicLong()).runAll();
      // Private directories first: the layout that spreads over slots today.
      for (boolean shared : List.of(false, true)) {
        MdtestWorkload.Settings s = new MdtestWorkload.Settings(o.threads(), o.files(), shared, o.depth());
        MdtestWorkload w = new MdtestWorkload(fs,
            new org.apache.hadoop.fs.Path("/scale/" + s.layout().replace(' ', '-')), s, done);
        w.prepare();
        for (Phase phase : Phase.values()) {
          long[] before = entries(cluster);
          long rpcsBefore = rpcs(fs);
          PhaseResult r = w.run(phase);
          phases.add(new PhaseRun(n, phase.name().toLowerCase(Locale.ROOT) + " (" + s.layout() + ")", r,
              rpcs(fs) - rpcsBefore));
          if (phase == Phase.CREATE) {
            long[] after = entries(cluster);
            for (int k = 0; k < n; k++) {
              after[k] -= before[k];
            }
            entries.add(new SlotEntries(n, s.layout(), after));
          }
        }
        w.cleanUp();
      }
    }
    WorkDirs.deleteTree(dir);
  }

  private static FileSystem client(LocalCluster cluster) throws IOException {
    Configuration conf = new Configuration();
    for (Map.Entry<String, String> e : cluster.clientConf().entrySet()) {
      conf.set(e.getKey(), e.getValue());
    }
    return FileSystem.newInstance(URI.create(cluster.defaultFs()), conf);
  }

  private static long[] entries(LocalCluster cluster) {
    long[] out = new long[cluster.serverCount()];
    for (int k = 0; k < out.length; k++) {
      // Counted exactly: RocksDB's estimate goes wrong after a split's range deletion.
      try (org.rocksdb.RocksIterator it = cluster.server(k).namespace().store().iterator(
          cluster.server(k).namespace().store().entries(), null)) {
        for (it.seekToFirst(); it.isValid(); it.next()) {
          out[k]++;
        }
      }
    }
    return out;
  }

  private static long rpcs(FileSystem fs) {
    Long v = fs.getStorageStatistics().getLong("rpc");
    return v == null ? 0 : v;
  }

  private static List<BalancePrediction.Row> predict(Options o, Path work) throws IOException {
    List<BalancePrediction.Workload> workloads = new ArrayList<>();
    if (o.traces().isEmpty()) {
      Path trace = work.resolve("trace.log.gz");
      new TraceGenerator(SEED, 16, TraceGenerator.LINKEDIN_MIX).write(trace, o.traceLines());
      workloads.add(BalancePrediction.trace(String.format(Locale.ROOT, "LinkedIn-mix trace (%,d calls)",
          o.traceLines()), List.of(trace), o.traceLines()));
    } else {
      long lines = 0;
      for (Path p : o.traces()) {
        lines += Files.size(p) / 200; // a guess for the progress bar only
      }
      workloads.add(BalancePrediction.trace("audit log " + o.traces(), o.traces(), lines));
    }
    workloads.add(BalancePrediction.mdtest(false, 1024, 500));
    workloads.add(BalancePrediction.mdtest(true, 1024, 500));
    long total = 2L * o.predictSlots().size() * workloads.stream().mapToLong(BalancePrediction.Workload::calls).sum();
    AtomicLong done = new AtomicLong();
    try (ProgressBar bar = ProgressBar.open(o.progress(), "balance model", total, done::get)) {
      return BalancePrediction.run(workloads, o.predictSlots(), o.splitThreshold(), REFRESH_EVERY_CALLS, SEED, done);
    }
  }

}
