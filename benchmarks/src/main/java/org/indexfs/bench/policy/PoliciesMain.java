package org.indexfs.bench.policy;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.indexfs.bench.report.BenchReport;
import org.indexfs.bench.report.ReportWriter;
import org.indexfs.bench.report.Table;
import org.indexfs.bench.report.TargetRun;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.policy.SubtreePolicy;
import org.indexfs.common.policy.SubtreePolicy.Consistency;
import org.indexfs.common.policy.SubtreePolicy.Durability;
import org.indexfs.hadoop.IndexFileSystem;
import org.indexfs.server.local.LocalCluster;

/**
 * {@code bin/indexfs bench policies} (issue 18, after Cudele's evaluation): mdtest's create and stat
 * phases in sibling subtrees with different policies — strong+sync, strong+async, localized,
 * decoupled — at the same time on one cluster, each through its own FileSystem (a separate client),
 * with per-subtree ops/s and latency percentiles; and the strong+sync subtree measured alone first,
 * so the report shows what running beside the others costs it (isolation). The localized subtree's
 * publish and the decoupled subtree's check-out and merge are timed apart from the phases. Writes
 * report.{md,html,json} and charts (XChart).
 */
public final class PoliciesMain {
  public static final String USAGE = "indexfs bench policies [--files N] [--threads T] [--out DIR] [--quick]";

  /** One subtree of the run: where, which policy, and its label in the report. */
  record Subtree(String label, String path, SubtreePolicy policy) {}

  private PoliciesMain() {}

  public static void main(String[] args) throws Exception {
    int files = 5_000;
    int threads = 2;
    Path out = Path.of("bench-report/policies");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--files" -> files = Integer.parseInt(args[++i]);
        case "--threads" -> threads = Integer.parseInt(args[++i]);
        case "--out" -> out = Path.of(args[++i]);
        case "--quick" -> files = 500;
        default -> {
          System.err.println("Usage: " + USAGE);
          System.exit(2);
        }
      }
    }
    List<Subtree> subtrees = List.of(
        new Subtree("strong+sync", "/strong-sync", SubtreePolicy.DEFAULT),
        new Subtree("strong+async", "/strong-async", new SubtreePolicy(Consistency.STRONG, Durability.ASYNC)),
        new Subtree("localized", "/localized", new SubtreePolicy(Consistency.LOCALIZED, Durability.SYNC)),
        new Subtree("decoupled", "/decoupled", new SubtreePolicy(Consistency.DECOUPLED, Durability.SYNC)));
    Path work = out.resolve("work");
    org.indexfs.bench.WorkDirs.deleteTree(work);
    BenchReport report = new BenchReport("Subtree policies side by side (bench policies)");
    try (LocalCluster cluster = LocalCluster.builder(work).clusterName("policies").servers(1)
        .set(IndexFsConfig.WAL_SYNC.name(), "true").set(IndexFsConfig.AUDIT_ENABLED.name(), "false").start()) {
      Configuration conf = new Configuration();
      cluster.clientConf().forEach(conf::set);
      URI uri = URI.create(cluster.defaultFs());
      try (IndexFileSystem admin = (IndexFileSystem) FileSystem.newInstance(uri, conf)) {
        for (Subtree s : subtrees) {
          admin.mkdirs(new org.apache.hadoop.fs.Path(s.path()));
          admin.setPolicy(new org.apache.hadoop.fs.Path(s.path()), s.policy());
        }
        admin.mkdirs(new org.apache.hadoop.fs.Path("/strong-sync-alone"));
        report.fact("decoupled", "checked out before the create phase, merged after the stat phase");
        report.fact("files per thread", files).fact("threads per subtree", threads)
            .fact("wal.sync", true).fact("wal.async-window-ms", IndexFsConfig.WAL_ASYNC_WINDOW_MS.defaultValue())
            .fact("cores", Runtime.getRuntime().availableProcessors())
            .fact("load average at start", java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                .getSystemLoadAverage());
      }
      System.out.printf(Locale.ROOT, "# bench policies: %d files x %d threads per subtree, 1 slot, wal.sync=true%n",
          files, threads);
      // Isolation baseline: the strong+sync subtree alone on the cluster.
      SubtreeRun alone = new SubtreeRun(new Subtree("strong+sync alone", "/strong-sync-alone", SubtreePolicy.DEFAULT),
          uri, conf, files, threads);
      alone.start();
      alone.join();
      // Then every subtree at once.
      List<SubtreeRun> together = new ArrayList<>();
      for (Subtree s : subtrees) {
        together.add(new SubtreeRun(s, uri, conf, files, threads));
      }
      for (SubtreeRun r : together) {
        r.start();
      }
      for (SubtreeRun r : together) {
        r.join();
      }
      List<SubtreeRun> all = new ArrayList<>(together);
      all.add(alone);
      List<List<String>> rows = new ArrayList<>();
      for (SubtreeRun r : all) {
        TargetRun run = r.result();
        report.run(run);
        rows.add(List.of(run.label(), fmt(run.op("create").opsPerSecond()), String.valueOf(run.op("create").p99()),
            fmt(run.op("stat").opsPerSecond()), String.valueOf(run.op("stat").p99()),
            r.localized() || r.decoupled() ? String.format(Locale.ROOT, "%.2f", r.publishSeconds()) : "-",
            r.decoupled() ? String.format(Locale.ROOT, "%.3f", r.checkoutSeconds()) : "-"));
      }
      report.table(new Table("Per subtree (creates and stats run concurrently in every subtree of the 'together' runs)",
          List.of("subtree", "create ops/s", "create p99 µs", "stat ops/s", "stat p99 µs", "publish / merge s",
              "check-out s"), rows));
      TargetRun a = alone.result();
      TargetRun b = together.get(0).result();
      report.table(new Table("Isolation: strong+sync alone vs beside strong+async, localized and decoupled",
          List.of("", "create ops/s", "create p99 µs", "stat ops/s", "stat p99 µs"),
          List.of(row("alone", a), row("beside the others", b),
              List.of("beside / alone", ratio(b.op("create").opsPerSecond(), a.op("create").opsPerSecond()),
                  ratio(b.op("create").p99(), a.op("create").p99()),
                  ratio(b.op("stat").opsPerSecond(), a.op("stat").opsPerSecond()),
                  ratio(b.op("stat").p99(), a.op("stat").p99())))));
    }
    ReportWriter.write(report, out);
    for (Table t : report.tables()) {
      System.out.println(t.toText());
    }
    System.out.println("Report: " + out.resolve("report.md") + " (charts: throughput.png, latency-p99.png)");
  }

  private static List<String> row(String label, TargetRun r) {
    return List.of(label, fmt(r.op("create").opsPerSecond()), String.valueOf(r.op("create").p99()),
        fmt(r.op("stat").opsPerSecond()), String.valueOf(r.op("stat").p99()));
  }

  private static String fmt(double v) {
    return String.format(Locale.ROOT, "%,.0f", v);
  }

  private static String ratio(double a, double b) {
    return b == 0 ? "-" : String.format(Locale.ROOT, "%.2f", a / b);
  }
}
