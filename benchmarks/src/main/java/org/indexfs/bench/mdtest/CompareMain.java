package org.indexfs.bench.mdtest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.apache.hadoop.fs.FileSystem;
import org.indexfs.bench.mdtest.MdtestWorkload.Phase;
import org.indexfs.bench.mdtest.MdtestWorkload.PhaseResult;
import org.indexfs.bench.mdtest.MdtestWorkload.Settings;
import org.indexfs.bench.replay.ProgressBar;
import org.indexfs.bench.report.BenchReport;
import org.indexfs.bench.report.OpMetrics;
import org.indexfs.bench.report.ReportMain;
import org.indexfs.bench.report.ReportWriter;
import org.indexfs.bench.report.Table;
import org.indexfs.bench.report.TargetRun;

/**
 * {@code bin/indexfs bench compare}: the mdtest workload against the stock HDFS NameNode and
 * IndexFS on the same machine, in the same run, through the same FileSystem API, in alternating
 * rounds (A B C A B C ...) so machine drift cancels; plus raw RocksDB for the same operations. One
 * more system is IndexFS through its NameNode-protocol gateway with the stock {@code hdfs://}
 * client: what a site that changes no client gets.
 */
public final class CompareMain {
  public static final String USAGE = """
      Usage: indexfs bench compare [--quick] [--threads T] [--files N] [--rounds R] [--warm-up-rounds W]
                                   [--depth D] [--out DIR] [--publish docs/performance.md] [--no-progress]
        --quick        8 threads x 400 files, 2 rounds (about 3 minutes on 2 cores)
      Systems, alternating: the NameNode, IndexFS (sync WAL), hdfs:// via a gateway in front of it
      (the stock DistributedFileSystem), IndexFS async, IndexFS journaled.
        --threads T    client threads per system (default 16)
        --files N      files per thread per layout (default 1000)
        --rounds R     alternating rounds (default 3)
        --warm-up-rounds W  unmeasured rounds of every system first, alternating as the measured
                       ones (default 1): the JIT compiles both clients and servers before timing
        --depth D      directories above the test directories (default 3)
        --out DIR      report directory (default bench-report/compare)
        --publish F    also copy the tables and charts into F between its performance markers (docs/performance.md)
      """;

  private CompareMain() {}

  record Options(int threads, int files, int rounds, int warmUpRounds, int depth, Path out, Path publish,
      boolean progress, List<String> args) {}

  static Options parse(String[] args) {
    int threads = 16;
    int files = 1000;
    int rounds = 3;
    int warmUpRounds = 1;
    int depth = 3;
    Path out = Path.of("bench-report", "compare");
    Path publish = null;
    boolean progress = true;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--quick" -> {
          threads = 8;
          files = 400;
          rounds = 2;
        }
        case "--threads" -> threads = Integer.parseInt(args[++i]);
        case "--files" -> files = Integer.parseInt(args[++i]);
        case "--rounds" -> rounds = Integer.parseInt(args[++i]);
        case "--warm-up-rounds" -> warmUpRounds = Integer.parseInt(args[++i]);
        case "--depth" -> depth = Integer.parseInt(args[++i]);
        case "--out" -> out = Path.of(args[++i]);
        case "--publish" -> publish = Path.of(args[++i]);
        case "--no-progress" -> progress = false;
        default -> throw new IllegalArgumentException("Unknown argument " + args[i] + "\n" + USAGE);
      }
    }
    if (rounds < 1 || warmUpRounds < 0) {
      throw new IllegalArgumentException("--rounds must be at least 1 and --warm-up-rounds at least 0\n" + USAGE);
    }
    return new Options(threads, files, rounds, warmUpRounds, depth, out, publish, progress, List.of(args));
  }

  /** One system of the comparison and its accumulated phases. */
  static final class Subject {
    final String label;
    final String uri;
    final Map<String, Histogram> micros = new LinkedHashMap<>();
    final Map<String, Double> seconds = new LinkedHashMap<>();
    final Map<String, Long> errors = new LinkedHashMap<>();
    final Map<String, long[]> cpu = new LinkedHashMap<>(); // op -> {operations, server ns, client ns, gateway ns}

    Subject(String label, String uri) {
      this.label = label;
      this.uri = uri;
    }

    void add(String op, PhaseResult r) {
      add(op, r, 0);
    }

    /** {@code gatewayNanos}: CPU of the gateway's RPC server threads during the phase (0 without one). */
    void add(String op, PhaseResult r, long gatewayNanos) {
      micros.computeIfAbsent(op, k -> new Histogram(3_600_000_000L, 3)).add(r.micros());
      seconds.merge(op, r.seconds(), Double::sum);
      errors.merge(op, r.errors(), Long::sum);
      long[] c = cpu.computeIfAbsent(op, k -> new long[4]);
      c[0] += r.operations();
      c[1] += r.serverCpuNanos();
      c[2] += r.clientCpuNanos();
      c[3] += gatewayNanos;
    }

    double gatewayMicros(String op) {
      long[] c = cpu.get(op);
      return c == null || c[0] == 0 ? 0 : c[3] / 1000.0 / c[0];
    }

    double serverMicros(String op) {
      long[] c = cpu.get(op);
      return c == null || c[0] == 0 ? 0 : c[1] / 1000.0 / c[0];
    }

    double clientMicros(String op) {
      long[] c = cpu.get(op);
      return c == null || c[0] == 0 ? 0 : c[2] / 1000.0 / c[0];
    }

    TargetRun toRun() {
      List<OpMetrics> ops = new ArrayList<>();
      Histogram all = new Histogram(3_600_000_000L, 3);
      double total = 0;
      long errs = 0;
      for (String op : micros.keySet()) {
        ops.add(OpMetrics.of(op, micros.get(op), seconds.get(op), errors.get(op)));
        all.add(micros.get(op));
        total += seconds.get(op);
        errs += errors.get(op);
      }
      return new TargetRun(label, uri, total, ops, OpMetrics.of("all phases", all, total, errs));
    }
  }

  public static void main(String[] args) throws Exception {
    ReportMain.run(args, CompareMain::parse, CompareMain::run, Options::out, 4);
  }

  static BenchReport run(Options o) throws IOException, InterruptedException {
    Path work = Files.createTempDirectory("indexfs-bench-");
    List<Settings> layouts = List.of(new Settings(o.threads(), o.files(), true, o.depth()),
        new Settings(o.threads(), o.files(), false, o.depth()));
    Subject hdfs;
    Subject sync;
    Subject gateway;
    Subject async;
    Subject journaled;
    Floor floor;
    FirstCall.Times inProcess;
    FirstCall.Times fresh;
    long perRound = layouts.stream().mapToLong(MdtestWorkload::calls).sum();
    AtomicLong done = new AtomicLong();
    try (BenchClusters clusters = new BenchClusters(work)) {
      hdfs = new Subject("HDFS", clusters.hdfsUri().toString());
      sync = new Subject("IndexFS", "indexfs://bench-sync/ (indexfs.wal.sync=true)");
      gateway = new Subject("hdfs:// via gateway", clusters.gatewayUri()
          + "/ (stock DistributedFileSystem; a gateway in this JVM in front of indexfs://bench-sync/)");
      async = new Subject("IndexFS async", "indexfs://bench-async/ (indexfs.wal.sync=false)");
      journaled = new Subject("IndexFS journaled",
          "indexfs://bench-journal/ (indexfs.wal.sync=true, indexfs.journal.enabled=true, journal on the same HDFS)");
      try (FileSystem hdfsFs = clusters.hdfsClient();
          FileSystem syncFs = clusters.indexfsClient(true);
          FileSystem asyncFs = clusters.indexfsClient(false);
          FileSystem journalFs = clusters.indexfsJournalClient();
          FileSystem gatewayFs = clusters.gatewayClient();
          ProgressBar bar = ProgressBar.open(o.progress(), "compare", perRound * 5L * (o.rounds() + o.warmUpRounds())
              + Floor.calls(o.threads(), o.files()), done::get)) {
        // Warm-up rounds first (results dropped), then the measured ones; both alternate the systems.
        for (int round = -o.warmUpRounds(); round < o.rounds(); round++) {
          for (Subject s : List.of(hdfs, sync, gateway, async, journaled)) {
            FileSystem fs = s == hdfs ? hdfsFs : s == sync ? syncFs : s == gateway ? gatewayFs
                : s == async ? asyncFs : journalFs;
            for (Settings layout : layouts) {
              // The gateway shares bench-sync's namespace: a directory of its own there.
              String name = (s == gateway ? "gateway-" : "") + (round < 0 ? "w" + (-round) : "r" + round) + "/"
                  + layout.layout().replace(' ', '-');
              MdtestWorkload w = new MdtestWorkload(fs, new org.apache.hadoop.fs.Path("/bench/" + name), layout, done);
              w.prepare();
              for (MdtestWorkload.Phase phase : MdtestWorkload.Phase.values()) {
                long gw = s == gateway ? GatewayCpu.nanos(clusters.gatewayPort()) : 0;
                PhaseResult r = w.run(phase);
                gw = s == gateway ? GatewayCpu.nanos(clusters.gatewayPort()) - gw : 0;
                if (round >= 0) {
                  s.add(r.phase().name().toLowerCase(Locale.ROOT) + " (" + layout.layout() + ")", r, gw);
                }
              }
              w.cleanUp();
            }
          }
        }
        floor = Floor.run(work.resolve("kv"), o.threads(), o.files(), done);
        inProcess = FirstCall.inProcess(clusters, FIRST_CALL_ROUNDS);
        fresh = FirstCall.freshJvm(clusters, FIRST_CALL_ROUNDS, work);
      }
    }
    deleteQuietly(work);
    return report(o, hdfs, sync, gateway, async, journaled, floor, FirstCall.table(inProcess, fresh));
  }

  /** Fresh clients per system: a few JVM starts each, alternating. */
  private static final int FIRST_CALL_ROUNDS = 5;

  static BenchReport report(Options o, Subject hdfs, Subject sync, Subject gateway, Subject async,
      Subject journaled, Floor floor, Table firstCall) throws IOException {
    BenchReport report = new BenchReport("IndexFS vs HDFS NameNode: mdtest-style metadata workload");
    report.fact("command", "bin/indexfs bench compare " + String.join(" ", o.args()));
    report.fact("date", Instant.now().toString());
    report.fact("machine", Machine.describe());
    report.fact("versions", Machine.versions());
    report.fact("workload", String.format(Locale.ROOT,
        "%d threads x %,d empty files per layout, directory depth %d, %d alternating rounds after %d unmeasured"
            + " warm-up round(s); phases create, stat, list, delete",
        o.threads(), o.files(), o.depth(), o.rounds(), o.warmUpRounds()));
    report.fact("durability", "HDFS: NameNode edit log fsynced per transaction batch (MiniDFSCluster with"
        + " skipFsyncForTesting=false), 1 DataNode. IndexFS: RocksDB WAL fsynced before a mutation returns"
        + " (group commit) — the headline; 'IndexFS async' writes the WAL without fsync, shown for reference.");
    report.fact("systems", "same JVM, same machine, same Hadoop FileSystem API; IndexFS's data tier is the same HDFS;"
        + " 'hdfs:// via gateway' is the stock DistributedFileSystem against a gateway (in this JVM) in front of the"
        + " IndexFS cluster: its creates make the entry in IndexFS; a file's data object is made on the NameNode at"
        + " its first block, so mdtest's empty files never reach the NameNode");
    TargetRun h = hdfs.toRun();
    TargetRun s = sync.toRun();
    TargetRun a = async.toRun();
    TargetRun g = gateway.toRun();
    report.run(s).run(h).run(g).run(a);
    report.table(headline(h, s, a));
    report.table(gatewayTable(h, s, g));
    report.table(cpuTable(hdfs, sync, async));
    report.table(gatewayCpuTable(hdfs, sync, gateway));
    report.table(floor.table(s, a, sync, async));
    report.table(floor.syncTable(s, sync, o.threads()));
    report.table(journalCost(s, journaled.toRun()));
    report.table(firstCall);
    ReportWriter.write(report, o.out());
    if (o.publish() != null) {
      Publish.toReadme(report, o.out(), o.publish());
    }
    return report;
  }

  static Table headline(TargetRun hdfs, TargetRun sync, TargetRun async) {
    List<List<String>> rows = new ArrayList<>();
    for (OpMetrics m : hdfs.ops()) {
      OpMetrics i = sync.op(m.op());
      OpMetrics a = async.op(m.op());
      rows.add(List.of(m.op(), fmt(m.opsPerSecond()), fmt(i.opsPerSecond()), ratio(i.opsPerSecond(), m.opsPerSecond()),
          m.p50() + " / " + m.p99(), i.p50() + " / " + i.p99(), fmt(a.opsPerSecond()),
          ratio(a.opsPerSecond(), m.opsPerSecond())));
    }
    return new Table("Throughput (ops/s) and latency (p50 / p99, µs): IndexFS vs HDFS",
        List.of("phase", "HDFS ops/s", "IndexFS ops/s", "IndexFS / HDFS", "HDFS p50/p99", "IndexFS p50/p99",
            "IndexFS async ops/s", "async / HDFS"), rows);
  }

  /** The gateway's column: IndexFS through the stock hdfs:// client, beside IndexFS direct and the NameNode. */
  static Table gatewayTable(TargetRun hdfs, TargetRun direct, TargetRun gateway) {
    List<List<String>> rows = new ArrayList<>();
    for (OpMetrics m : hdfs.ops()) {
      OpMetrics i = direct.op(m.op());
      OpMetrics g = gateway.op(m.op());
      rows.add(List.of(m.op(), fmt(m.opsPerSecond()), fmt(i.opsPerSecond()), fmt(g.opsPerSecond()),
          ratio(g.opsPerSecond(), m.opsPerSecond()), ratio(g.opsPerSecond(), i.opsPerSecond()),
          m.p50() + " / " + m.p99(), g.p50() + " / " + g.p99()));
    }
    return new Table("hdfs:// via gateway: the stock HDFS client on IndexFS (ops/s, p50 / p99 µs; same workload, same run)",
        List.of("phase", "HDFS ops/s", "IndexFS ops/s", "hdfs:// via gateway ops/s", "gateway / HDFS",
            "gateway / IndexFS", "HDFS p50/p99", "gateway p50/p99"), rows);
  }

  /** CPU per operation through the gateway: all servers (gateway, IndexFS, the NameNode for objects) and the gateway alone. */
  static Table gatewayCpuTable(Subject hdfs, Subject direct, Subject gateway) {
    List<List<String>> rows = new ArrayList<>();
    for (String op : hdfs.cpu.keySet()) {
      rows.add(List.of(op, micros(hdfs.serverMicros(op)), micros(direct.serverMicros(op)),
          micros(gateway.serverMicros(op)), micros(gateway.gatewayMicros(op)), micros(gateway.clientMicros(op))));
    }
    return new Table("CPU per operation through the gateway (µs; servers = every server thread of the run: for the"
        + " gateway, its RPC threads, the IndexFS servers and the NameNode it makes objects on)",
        List.of("phase", "HDFS server", "IndexFS server", "via gateway: servers", "of which gateway RPC threads",
            "via gateway: client and gateway's client I/O"), rows);
  }

  /**
   * What HA costs (DESIGN §11): every mutation's batch appended and hsynced to the journal on HDFS
   * before its reply, group-committed with the WAL fsync, against the same cluster without it.
   */
  static Table journalCost(TargetRun plain, TargetRun journaled) {
    List<List<String>> rows = new ArrayList<>();
    for (OpMetrics m : plain.ops()) {
      OpMetrics j = journaled.op(m.op());
      rows.add(List.of(m.op(), fmt(m.opsPerSecond()), fmt(j.opsPerSecond()), ratio(j.opsPerSecond(), m.opsPerSecond()),
          m.p50() + " / " + m.p99(), j.p50() + " / " + j.p99()));
    }
    return new Table("Journaling's cost (wal.sync=true, with and without the journal on the same HDFS; ops/s, p50 / p99 µs)",
        List.of("phase", "IndexFS ops/s", "journaled ops/s", "journaled / plain", "IndexFS p50/p99",
            "journaled p50/p99"), rows);
  }

  /** Server and client CPU per operation, measured per thread ({@link org.indexfs.bench.ThreadCpu}). */
  static Table cpuTable(Subject hdfs, Subject sync, Subject async) {
    List<List<String>> rows = new ArrayList<>();
    for (String op : hdfs.cpu.keySet()) {
      rows.add(List.of(op, micros(hdfs.serverMicros(op)), micros(hdfs.clientMicros(op)),
          micros(sync.serverMicros(op)), micros(sync.clientMicros(op)),
          micros(async.serverMicros(op)), micros(async.clientMicros(op))));
    }
    return new Table("CPU per operation (µs, all threads of each side; create = create + close)",
        List.of("phase", "HDFS server", "HDFS client", "IndexFS server", "IndexFS client",
            "IndexFS async server", "IndexFS async client"), rows);
  }

  static String micros(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  static String fmt(double v) {
    return String.format(Locale.ROOT, "%,.0f", v);
  }

  static String ratio(double a, double b) {
    return b > 0 ? String.format(Locale.ROOT, "%.2fx", a / b) : "n/a";
  }

  static String pct(double a, double b) {
    return b > 0 ? String.format(Locale.ROOT, "%.1f %%", 100 * a / b) : "n/a";
  }

  private static void deleteQuietly(Path dir) {
    try (var paths = Files.walk(dir)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      System.err.println("Could not remove " + dir + ": " + e.getMessage());
    }
  }
}
