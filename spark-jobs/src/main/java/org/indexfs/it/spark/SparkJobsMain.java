package org.indexfs.it.spark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.SparkSession;

/**
 * {@code SparkJobsMain --base DIR --out LOCAL_DIR}, submitted with spark-submit: runs every job of
 * {@link SparkJobs} under {@code DIR} on the session's default file system (whatever
 * {@code spark.hadoop.fs.defaultFS} names) and records, in {@code LOCAL_DIR}, for each job its
 * result rows ({@code <job>.rows}), the files it left in its output directories
 * ({@code <job>.files}) with the SHA-256 of each ({@code <job>.digests}), the client calls of each
 * metered task ({@code <job>.task-calls}), and its wall time ({@code times.tsv}), for the caller
 * to compare runs.
 */
public final class SparkJobsMain {
  private SparkJobsMain() {}

  public static void main(String[] args) throws Exception {
    String base = null;
    Path out = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--base" -> base = args[++i];
        case "--out" -> out = Path.of(args[++i]);
        default -> throw new IllegalArgumentException("Usage: SparkJobsMain --base DIR --out LOCAL_DIR; not " + args[i]);
      }
    }
    if (base == null || out == null) {
      throw new IllegalArgumentException("Usage: SparkJobsMain --base DIR --out LOCAL_DIR");
    }
    Files.createDirectories(out);
    SparkSession spark = SparkSession.builder().appName("indexfs-integration-jobs").getOrCreate();
    try {
      SparkJobs jobs = new SparkJobs(spark, base);
      jobs.writeInput();
      List<String> times = new ArrayList<>();
      for (SparkJobs.Job job : jobs.all()) {
        long start = System.nanoTime();
        MeteredCommitter.TASK_CALLS.clear();
        SparkJobs.Result result = job.run();
        long millis = (System.nanoTime() - start) / 1_000_000;
        times.add(job.name() + "\t" + millis);
        write(out.resolve(job.name() + ".rows"), result.rows());
        write(out.resolve(job.name() + ".files"), jobs.outputFiles(result.outputs()));
        write(out.resolve(job.name() + ".digests"), jobs.outputDigests(result.outputs()));
        List<String> calls = new ArrayList<>();
        MeteredCommitter.TASK_CALLS.forEach((attempt, n) -> calls.add(attempt + "\t" + n));
        write(out.resolve(job.name() + ".task-calls"), calls);
        System.out.println("job " + job.name() + " took " + millis + " ms");
      }
      write(out.resolve("times.tsv"), times);
    } finally {
      spark.stop();
    }
  }

  private static void write(Path file, List<String> lines) throws IOException {
    Files.write(file, lines, StandardCharsets.UTF_8);
  }
}
