package org.indexfs.bench.report;

import java.nio.file.Path;

/**
 * The shape every report-writing benchmark's {@code main} shares: parse the options (a usage
 * error exits 2 with its message), run, print the first tables, point at the HTML report.
 */
public final class ReportMain {
  private ReportMain() {}

  /** Parses the command line into options. */
  @FunctionalInterface
  public interface Parser<O> {
    O parse(String[] args);
  }

  /** Runs the benchmark and returns its report. */
  @FunctionalInterface
  public interface Runner<O> {
    BenchReport run(O options) throws Exception;
  }

  public static <O> void run(String[] args, Parser<O> parser, Runner<O> runner, java.util.function.Function<O, Path> out,
      int tablesToPrint) throws Exception {
    System.setProperty("java.awt.headless", "true");
    O options;
    try {
      options = parser.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    BenchReport report = runner.run(options);
    System.out.println();
    report.tables().stream().limit(tablesToPrint).forEach(t -> System.out.println(t.toText()));
    System.out.println("Report: " + out.apply(options).toAbsolutePath().resolve("report.html"));
    System.exit(0);
  }
}
