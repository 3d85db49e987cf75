package org.indexfs.it;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.VersionInfo;
import org.indexfs.it.JobCluster.Target;

/**
 * {@code bin/indexfs bench jobs [--rounds N] [--rows N] [--words N] [--out DIR]}: the wall time of
 * each MapReduce example job (local job runner) and each Spark job (spark-submit, local[2], the
 * shaded client jar) on {@code indexfs://} and on {@code hdfs://} of the same MiniDFSCluster, in
 * one run: rounds alternate which system goes first, and each cell is the median over rounds.
 * Prints a Markdown table and writes it to {@code DIR/job-times.md}. A job that fails, or a
 * teravalidate that reports an error, stops the run: no time is reported for a wrong answer.
 */
public final class JobTimesMain {
  private static final String USAGE = "Usage: indexfs bench jobs [--rounds N (3)] [--rows N teragen rows (200000)]"
      + " [--words N wordcount input words (1000000)] [--out DIR (integration-tests/target/job-times)]";
  private static final String[] WORDS = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta",
      "iota", "kappa", "lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "tau", "upsilon"};

  private final JobCluster cluster;
  private final SparkSubmission spark;
  private final java.nio.file.Path work;
  private final long rows;
  private final long words;
  /** job name, in first-run order → system → one time per round, in ms. */
  private final Map<String, Map<Target, List<Long>>> millis = new LinkedHashMap<>();

  private JobTimesMain(JobCluster cluster, SparkSubmission spark, java.nio.file.Path work, long rows, long words) {
    this.cluster = cluster;
    this.spark = spark;
    this.work = work;
    this.rows = rows;
    this.words = words;
  }

  public static void main(String[] args) throws Exception {
    int rounds = 3;
    long rows = 200_000;
    long words = 1_000_000;
    java.nio.file.Path out =
        java.nio.file.Path.of(System.getProperty("indexfs.job-times.out", "integration-tests/target/job-times"));
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--rounds" -> rounds = Integer.parseInt(args[++i]);
        case "--rows" -> rows = Long.parseLong(args[++i]);
        case "--words" -> words = Long.parseLong(args[++i]);
        case "--out" -> out = java.nio.file.Path.of(args[++i]);
        case "--help", "-h" -> {
          System.out.println(USAGE);
          return;
        }
        default -> {
          System.err.println("Unknown argument " + args[i] + "\n" + USAGE);
          System.exit(2);
        }
      }
    }
    SparkSubmission spark = SparkSubmission.fromSystemProperties();
    Files.createDirectories(out);
    java.nio.file.Path work = Files.createTempDirectory(out.toAbsolutePath(), "work-");
    String report;
    try (JobCluster cluster = JobCluster.start(work.resolve("cluster"))) {
      // Untimed: the first jobs in a JVM pay for class loading and JIT, whichever system they hit.
      JobTimesMain warmUp = new JobTimesMain(cluster, spark, work, Math.min(rows, 10_000), Math.min(words, 50_000));
      for (Target target : Target.values()) {
        warmUp.mapReduce(target, -1);
      }
      JobTimesMain bench = new JobTimesMain(cluster, spark, work, rows, words);
      for (int round = 0; round < rounds; round++) {
        List<Target> order = round % 2 == 0 ? List.of(Target.INDEXFS, Target.HDFS) : List.of(Target.HDFS, Target.INDEXFS);
        for (Target target : order) {
          bench.mapReduce(target, round);
        }
        for (Target target : order) {
          bench.spark(target, round);
        }
        System.err.println("round " + (round + 1) + " of " + rounds + " done");
      }
      report = bench.report(args, rounds);
      // The jobs' cached clients (FileSystem.get) go before the servers they talk to.
      FileSystem.closeAll();
    } finally {
      org.apache.hadoop.fs.FileUtil.fullyDelete(work.toFile());
    }
    System.out.println(report);
    Files.writeString(out.resolve("job-times.md"), report, StandardCharsets.UTF_8);
    System.err.println("Written to " + out.resolve("job-times.md"));
  }

  /** wordcount, teragen, terasort, teravalidate on {@code target}, the default committer (algorithm 1). */
  private void mapReduce(Target target, int round) throws Exception {
    Configuration conf = MapReduceJobs.localRunner(cluster.clientConf(target), work.resolve("mr-local"), 1);
    String base = "/job-times/mr-" + (round < 0 ? "warm-up" : round);
    try (FileSystem fs = FileSystem.newInstance(conf)) {
      writeWords(fs, new Path(base + "/words"), words);
      time("wordcount", target, () -> MapReduceJobs.wordCount(conf, base + "/words", base + "/wordcount"));
      time("teragen", target, () -> MapReduceJobs.teraGen(conf, rows, base + "/gen"));
      time("terasort", target, () -> MapReduceJobs.teraSort(conf, base + "/gen", base + "/sorted"));
      time("teravalidate", target, () -> MapReduceJobs.teraValidate(conf, base + "/sorted", base + "/validate"));
      for (var part : fs.listStatus(new Path(base + "/validate"), p -> p.getName().startsWith("part-"))) {
        try (var in = fs.open(part.getPath())) {
          String report = new String(in.readAllBytes(), StandardCharsets.UTF_8);
          if (report.lines().anyMatch(l -> !l.startsWith("checksum\t"))) {
            throw new IOException("teravalidate on " + target.label() + " reported errors:\n" + report);
          }
        }
      }
      fs.delete(new Path(base), true);
    }
  }

  /** One spark-submit of every Spark job on {@code target}; each job times itself inside the JVM. */
  private void spark(Target target, int round) throws Exception {
    SparkSubmission.Run run = spark.submit(cluster.clientConf(target), "/job-times/spark-" + round,
        work.resolve("spark-" + target.label() + "-" + round));
    run.millis().forEach((job, ms) -> record("spark " + job, target, ms));
  }

  private interface JobBody {
    void run() throws Exception;
  }

  private void time(String job, Target target, JobBody body) throws Exception {
    long start = System.nanoTime();
    body.run();
    record(job, target, (System.nanoTime() - start) / 1_000_000);
  }

  private void record(String job, Target target, long ms) {
    millis.computeIfAbsent(job, j -> new EnumMap<>(Target.class)).computeIfAbsent(target, t -> new ArrayList<>()).add(ms);
  }

  private String report(String[] args, int rounds) {
    StringBuilder md = new StringBuilder();
    md.append("Produced by `bin/indexfs bench jobs").append(args.length > 0 ? " " + String.join(" ", args) : "")
        .append("` on ").append(Instant.now()).append(".\n\n");
    md.append("- Machine: ").append(Runtime.getRuntime().availableProcessors()).append(" cores, ")
        .append(System.getProperty("os.name")).append(' ').append(System.getProperty("os.version"))
        .append(", Java ").append(System.getProperty("java.version")).append(", Hadoop ").append(VersionInfo.getVersion())
        .append(", JVM heap max ").append(Runtime.getRuntime().maxMemory() >> 20).append(" MiB\n");
    md.append("- Systems: `hdfs://` is a MiniDFSCluster (1 NameNode with its edit log fsynced, 3 DataNodes);"
        + " `indexfs://` is one IndexFS metadata server (WAL fsynced) keeping its data objects on that same HDFS\n");
    md.append("- MapReduce: hadoop-mapreduce-examples on the local job runner in this JVM (2 map / 2 reduce slots,"
        + " FileOutputCommitter algorithm 1); wordcount over ").append(String.format(Locale.ROOT, "%,d", words))
        .append(" words, teragen/terasort/teravalidate of ").append(String.format(Locale.ROOT, "%,d", rows))
        .append(" rows; each job's time includes submission and commit\n");
    md.append("- Spark: one spark-submit per system and round (local[2], shaded client jar in --jars),"
        + " each job timed inside the driver\n");
    md.append("- ").append(rounds).append(" rounds alternating which system runs first, after an untimed"
        + " MapReduce warm-up on both; each cell is the median\n\n");
    md.append("| job | indexfs s | hdfs s | indexfs / hdfs | indexfs, each round | hdfs, each round |\n"
        + "|---|---:|---:|---:|---:|---:|\n");
    millis.forEach((job, bySystem) -> {
      double indexfs = median(bySystem.get(Target.INDEXFS)) / 1000.0;
      double hdfs = median(bySystem.get(Target.HDFS)) / 1000.0;
      md.append(String.format(Locale.ROOT, "| %s | %.2f | %.2f | %.2fx | %s | %s |%n", job, indexfs, hdfs, indexfs / hdfs,
          seconds(bySystem.get(Target.INDEXFS)), seconds(bySystem.get(Target.HDFS))));
    });
    return md.toString();
  }

  private static String seconds(List<Long> values) {
    return String.join(" ", values.stream().map(ms -> String.format(Locale.ROOT, "%.2f", ms / 1000.0)).toList());
  }

  private static double median(List<Long> values) {
    List<Long> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2.0;
  }

  private static void writeWords(FileSystem fs, Path path, long count) throws IOException {
    Random random = new Random(count);
    StringBuilder line = new StringBuilder();
    try (OutputStream out = fs.create(path, true)) {
      for (long i = 0; i < count; i++) {
        line.append(WORDS[random.nextInt(WORDS.length)]).append(i % 12 == 11 ? '\n' : ' ');
        if (line.length() > 64 * 1024) {
          out.write(line.toString().getBytes(StandardCharsets.UTF_8));
          line.setLength(0);
        }
      }
      out.write(line.toString().getBytes(StandardCharsets.UTF_8));
    }
  }
}
