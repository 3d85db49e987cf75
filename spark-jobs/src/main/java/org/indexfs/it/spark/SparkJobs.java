package org.indexfs.it.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.explode;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.split;
import static org.apache.spark.sql.functions.sum;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

/**
 * The Spark jobs of the integration tests, written as any Spark user writes them: paths under a
 * base directory on the default file system, no mention of IndexFS. Each job's result is its rows,
 * read back from what it wrote, as sorted strings, so two runs on different file systems compare
 * line by line (amounts are integers: no floating-point sums whose order could differ).
 */
final class SparkJobs {
  private static final String[] WORDS = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta",
      "iota", "kappa", "lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "tau", "upsilon"};
  /** Part files are named with the writing job's random UUID; listings compare without it. */
  private static final Pattern JOB_UUID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

  private final SparkSession spark;
  private final String base;

  SparkJobs(SparkSession spark, String base) {
    this.spark = spark;
    this.base = base;
  }

  /** One named job; {@link #run} returns what it wrote, read back. */
  record Job(String name, Body body) {
    Result run() throws IOException {
      return body.run();
    }
  }

  interface Body {
    Result run() throws IOException;
  }

  record Result(List<String> rows, List<String> outputs) {}

  List<Job> all() {
    return List.of(
        new Job("text", this::text),
        new Job("parquet", this::parquet),
        new Job("csv", this::csv),
        new Job("multi-stage", this::multiStage),
        new Job("dynamic-overwrite", this::dynamicOverwrite),
        new Job("one-file-task", () -> filesPerTask("one-file-task", 1)),
        new Job("fifty-files-task", () -> filesPerTask("fifty-files-task", 50)));
  }

  /** Text input written through the Hadoop FileSystem API: one file past the inline limit, one under. */
  void writeInput() throws IOException {
    FileSystem fs = FileSystem.get(spark.sparkContext().hadoopConfiguration());
    writeWords(fs, new Path(base + "/input/large.txt"), 60_000, 1);
    writeWords(fs, new Path(base + "/input/small.txt"), 500, 2);
  }

  /** Read text, count words, write the counts as text, read them back. */
  private Result text() {
    String out = base + "/text-counts";
    wordCounts().selectExpr("concat_ws('\t', word, cast(n as string)) as value")
        .write().mode(SaveMode.Overwrite).text(out);
    return new Result(rows(spark.read().text(out)), List.of(out));
  }

  /** The same counts as Parquet. */
  private Result parquet() {
    String out = base + "/parquet-counts";
    wordCounts().write().mode(SaveMode.Overwrite).parquet(out);
    return new Result(rows(spark.read().parquet(out)), List.of(out));
  }

  /** 20,000 generated orders written as CSV with a header, read back with a schema. */
  private Result csv() {
    String out = base + "/orders-csv";
    spark.range(0, 20_000)
        .selectExpr("id", "cast(id % 7 as int) as category", "(id * 37) % 1000 as amount", "concat('order-', id) as name")
        .repartition(3)
        .write().mode(SaveMode.Overwrite).option("header", "true").csv(out);
    Dataset<Row> back = spark.read().option("header", "true")
        .schema("id LONG, category INT, amount LONG, name STRING").csv(out);
    return new Result(rows(back), List.of(out));
  }

  /**
   * Several stages: the CSV orders shuffle-joined (broadcast joins off) with a category table
   * written as Parquet, aggregated per category, joined with the word counts by rank, sorted.
   */
  private Result multiStage() {
    String categories = base + "/categories";
    String out = base + "/category-report";
    spark.range(0, 7).selectExpr("cast(id as int) as category", "concat('category-', id) as label")
        .write().mode(SaveMode.Overwrite).parquet(categories);
    spark.conf().set("spark.sql.autoBroadcastJoinThreshold", "-1");
    try {
      Dataset<Row> orders = spark.read().option("header", "true")
          .schema("id LONG, category INT, amount LONG, name STRING").csv(base + "/orders-csv");
      Dataset<Row> perCategory = orders.join(spark.read().parquet(categories), "category")
          .groupBy("category", "label")
          .agg(count("*").as("orders"), sum("amount").as("total"), max("id").as("last_id"));
      Dataset<Row> words = spark.read().parquet(base + "/parquet-counts")
          .selectExpr("word", "n", "cast(row_number() over (order by n desc, word) - 1 as int) as category");
      perCategory.join(words, "category").orderBy(col("total").desc())
          .write().mode(SaveMode.Overwrite).parquet(out);
    } finally {
      spark.conf().unset("spark.sql.autoBroadcastJoinThreshold");
    }
    return new Result(rows(spark.read().parquet(out)), List.of(categories, out));
  }

  /**
   * Dynamic partition overwrite: days 1-4 written, then days 3-5 overwritten; days 1 and 2 must
   * keep the first batch, 3 and 4 hold only the second, 5 is new.
   */
  private Result dynamicOverwrite() {
    String out = base + "/events";
    spark.conf().set("spark.sql.sources.partitionOverwriteMode", "dynamic");
    try {
      spark.range(0, 400).selectExpr("id", "'first' as batch", "cast(id % 4 + 1 as int) as day")
          .write().mode(SaveMode.Overwrite).partitionBy("day").parquet(out);
      spark.range(1000, 1300).selectExpr("id", "'second' as batch", "cast(id % 3 + 3 as int) as day")
          .write().mode(SaveMode.Overwrite).partitionBy("day").parquet(out);
    } finally {
      spark.conf().unset("spark.sql.sources.partitionOverwriteMode");
    }
    return new Result(rows(spark.read().parquet(out).select("id", "batch", "day")), List.of(out));
  }

  /**
   * One task writes {@code files} CSV files, one per value of a partition column, through a
   * metered stock committer ({@link MeteredCommitter}): its client calls, per task, for the caller.
   * Without a shuffle its files' bytes are the same on every run (other jobs' row order within a
   * part file follows the order shuffle blocks arrive in, which differs from run to run).
   */
  private Result filesPerTask(String name, int files) {
    String out = base + "/" + name;
    spark.conf().set("spark.sql.sources.outputCommitterClass", MeteredCommitter.class.getName());
    try {
      // One partition and no shuffle: one task, and its rows in the same order on every run.
      spark.range(0, 1000, 1, 1).selectExpr("id", "cast(id % " + files + " as int) as bucket")
          .write().mode(SaveMode.Overwrite).partitionBy("bucket").csv(out);
    } finally {
      spark.conf().unset("spark.sql.sources.outputCommitterClass");
    }
    return new Result(rows(spark.read().schema("id LONG, bucket INT").csv(out)), List.of(out));
  }

  /** Per output file (as {@link #outputFiles} names it), the SHA-256 of its bytes. */
  List<String> outputDigests(List<String> outputs) throws IOException {
    FileSystem fs = FileSystem.get(spark.sparkContext().hadoopConfiguration());
    String prefix = fs.makeQualified(new Path(base)).toUri().getPath() + "/";
    List<String> digests = new ArrayList<>();
    for (String output : outputs) {
      RemoteIterator<LocatedFileStatus> it = fs.listFiles(new Path(output), true);
      while (it.hasNext()) {
        Path path = it.next().getPath();
        if (!path.getName().endsWith(".crc")) {
          try (var in = fs.open(path)) {
            java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
            String hex = java.util.HexFormat.of().formatHex(sha.digest(in.readAllBytes()));
            digests.add(JOB_UUID.matcher(path.toUri().getPath().substring(prefix.length())).replaceAll("<job>") + "\t" + hex);
          } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
          }
        }
      }
    }
    Collections.sort(digests);
    return digests;
  }

  private Dataset<Row> wordCounts() {
    return spark.read().text(base + "/input")
        .select(explode(split(col("value"), " ")).as("word"))
        .where("word != ''")
        .groupBy("word").agg(count("*").as("n"));
  }

  /**
   * Every file under the outputs, relative to {@code base}, with the job UUID in part-file names
   * masked; the local file system's {@code .crc} side files are left out.
   */
  List<String> outputFiles(List<String> outputs) throws IOException {
    FileSystem fs = FileSystem.get(spark.sparkContext().hadoopConfiguration());
    String prefix = fs.makeQualified(new Path(base)).toUri().getPath() + "/";
    List<String> files = new ArrayList<>();
    for (String output : outputs) {
      RemoteIterator<LocatedFileStatus> it = fs.listFiles(new Path(output), true);
      while (it.hasNext()) {
        String path = it.next().getPath().toUri().getPath();
        if (!path.endsWith(".crc")) {
          files.add(JOB_UUID.matcher(path.substring(prefix.length())).replaceAll("<job>"));
        }
      }
    }
    Collections.sort(files);
    return files;
  }

  private static List<String> rows(Dataset<Row> df) {
    List<String> rows = new ArrayList<>();
    for (Row r : df.collectAsList()) {
      rows.add(r.mkString(","));
    }
    Collections.sort(rows);
    return rows;
  }

  private static void writeWords(FileSystem fs, Path path, int words, long seed) throws IOException {
    Random random = new Random(seed);
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < words; i++) {
      text.append(WORDS[random.nextInt(WORDS.length)]).append(i % 12 == 11 ? '\n' : ' ');
    }
    try (OutputStream out = fs.create(path, true)) {
      out.write(text.toString().getBytes(StandardCharsets.UTF_8));
    }
  }
}
