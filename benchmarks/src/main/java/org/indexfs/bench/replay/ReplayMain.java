package org.indexfs.bench.replay;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.indexfs.bench.report.BenchReport;
import org.indexfs.bench.report.ReportWriter;

/** {@code bin/indexfs replay}: see {@link ReplayOptions#USAGE}. */
public final class ReplayMain {
  private ReplayMain() {}

  public static void main(String[] args) throws Exception {
    System.setProperty("java.awt.headless", "true"); // charts render to PNG files, never a screen
    ReplayOptions o;
    try {
      o = ReplayOptions.parse(args);
    } catch (ReplayOptions.UsageException e) {
      if (e.getMessage() != null) {
        System.err.println(e.getMessage() + "\n");
      }
      System.err.print(ReplayOptions.USAGE);
      System.exit(e.getMessage() == null ? 0 : 2);
      return;
    }
    try {
      run(o);
    } catch (Preflight.PreflightException e) {
      System.err.println(e.getMessage());
      System.exit(1);
    }
    System.exit(0);
  }

  /** Runs the command line; returns the report, or null when it only generated a trace. */
  static BenchReport run(ReplayOptions o) throws IOException {
    List<Path> trace = o.traces;
    if (o.generate >= 0) {
      Path file = o.traceOut != null ? o.traceOut : o.out.resolve("trace.log.gz");
      if (file.toAbsolutePath().getParent() != null) {
        Files.createDirectories(file.toAbsolutePath().getParent());
      }
      long t0 = System.nanoTime();
      new TraceGenerator(o.seed, o.users, o.mix).write(file, o.generate);
      System.out.printf("Generated %,d audit records (seed %d) in %.1f s: %s%n", o.generate, o.seed,
          (System.nanoTime() - t0) / 1e9, file);
      trace = List.of(file);
      if (o.targets.isEmpty()) {
        return null;
      }
    }
    Configuration base = new Configuration();
    for (Path c : o.confFiles) {
      base.addResource(new org.apache.hadoop.fs.Path(c.toUri()));
    }
    o.settings.forEach(base::set);

    TraceReplay replay = new TraceReplay(trace, o.zone, o.prefix);
    long t0 = System.nanoTime();
    PrecreatePlan plan = replay.plan();
    TraceCounts counts = replay.counts();
    System.out.printf("Trace: %,d lines, %,d replayable, %,d not replayed; %,d entries to pre-create (%.1f s)%n",
        counts.lines(), counts.usableTotal(), counts.lines() - counts.usableTotal(), plan.entries().size(),
        (System.nanoTime() - t0) / 1e9);

    List<TargetSession> sessions = new ArrayList<>();
    try {
      for (int i = 0; i < o.targets.size(); i++) {
        String label = o.label(i);
        if (i == 1 && label.equals(sessions.get(0).label())) {
          label = label + "-2";
        }
        sessions.add(new TargetSession(replay, new TraceReplay.Settings(label, URI.create(o.targets.get(i)), base,
            o.threads, o.rate, o.mode, o.singleUser, o.precreate, o.policy(), o.progress)));
      }
      Preflight.check(sessions, plan);
      for (TargetSession s : sessions) {
        s.startCopy();
      }
      ReplayRounds.Result result;
      DifferencesFile differences = new DifferencesFile(o.out, sessions.stream().map(TargetSession::label).toList());
      try (differences) {
        result = ReplayRounds.run(sessions, o.measuring(), differences, counts.usableTotal());
      }
      Map<String, String> facts = new LinkedHashMap<>();
      facts.put("date", Instant.now().toString());
      facts.put("command", "bin/indexfs replay " + String.join(" ", o.args));
      facts.put("trace", o.generate >= 0
          ? String.format("generated, %,d records, seed %d, mix %s", o.generate, o.seed, o.mix)
          : trace.toString());
      facts.put("machine", org.indexfs.bench.mdtest.Machine.describe());
      facts.put("versions", "Java " + Runtime.version() + ", Hadoop " + org.apache.hadoop.util.VersionInfo.getVersion()
          + ", replaying JVM heap max " + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB");
      facts.put("threads", String.valueOf(o.threads));
      if (o.prefix != null) {
        facts.put("paths", "below " + o.prefix);
      }
      facts.put("pace", o.rate == 0 ? "as fast as possible" : "trace pace x " + o.rate);
      facts.put("callers", o.mode == Impersonation.SINGLE ? "all as " + o.singleUser : o.mode.name().toLowerCase()
          + " users from ugi=");
      BenchReport report = ReplayReport.build("Audit-log replay", counts, plan, sessions, result, differences, facts,
          o.minCalls);
      ReportWriter.write(report, o.out);

      System.out.println();
      System.out.println(report.comparison().toText());
      report.tables().stream().limit(2).forEach(t -> System.out.println(t.toText()));
      report.facts().forEach((k, v) -> {
        if (k.contains("throughput per round") || k.endsWith(" replay")) {
          System.out.println(k + ": " + v);
        }
      });
      System.out.println("Report: " + o.out.resolve("report.html") + " (also report.md, report.json, *.png, "
          + DifferencesFile.NAME + ")");
      return report;
    } finally {
      for (TargetSession s : sessions) {
        s.close();
      }
    }
  }
}
