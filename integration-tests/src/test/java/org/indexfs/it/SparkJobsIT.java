package org.indexfs.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.it.JobCluster.Target;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Spark 4 in local mode, submitted with the shaded client jar and
 * {@code spark.hadoop.fs.defaultFS=indexfs://...}: text, Parquet and CSV written and read back, a
 * multi-stage join and aggregation, and a dynamic partition overwrite. The same jobs run on
 * {@code file://} in a second submission; every result and every output file name must match. A
 * third submission runs them on {@code indexfs://} with {@code indexfs.client.localize.task-attempts}:
 * the same results and files, byte for byte, and a write task's RPCs no longer grow with its files.
 */
class SparkJobsIT {
  private static final String[] JOBS = {"text", "parquet", "csv", "multi-stage", "dynamic-overwrite", "one-file-task",
      "fifty-files-task"};
  private static final String BASE = "/spark-it";

  private static SparkSubmission.Run onIndexfs;
  private static SparkSubmission.Run onLocal;
  /** On indexfs:// with indexfs.client.localize.task-attempts=true. */
  private static SparkSubmission.Run onIndexfsLocalized;

  @BeforeAll
  static void submitOnIndexfsAndOnTheLocalFileSystem() throws Exception {
    SparkSubmission spark = SparkSubmission.fromSystemProperties();
    onIndexfs = spark.submit(SharedJobCluster.get().clientConf(Target.INDEXFS), BASE,
        SharedJobCluster.newWorkDir("spark-indexfs"));
    String localBase = SharedJobCluster.newWorkDir("spark-local-data").toAbsolutePath().toString();
    onLocal = spark.submit(Map.of("fs.defaultFS", "file:///"), localBase, SharedJobCluster.newWorkDir("spark-file"));
    Map<String, String> localized = new java.util.LinkedHashMap<>(SharedJobCluster.get().clientConf(Target.INDEXFS));
    localized.put(IndexFsConfig.CLIENT_LOCALIZE_TASK_ATTEMPTS.name(), "true");
    onIndexfsLocalized = spark.submit(localized, BASE + "-localized", SharedJobCluster.newWorkDir("spark-localized"));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"text", "parquet", "csv", "multi-stage", "dynamic-overwrite", "one-file-task",
      "fifty-files-task"})
  void resultsEqualTheSameJobOnTheLocalFileSystem(String job) throws Exception {
    List<String> rows = onIndexfs.rows(job);
    assertFalse(rows.isEmpty(), job + " produced rows");
    assertEquals(onLocal.rows(job), rows, job);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"text", "parquet", "csv", "multi-stage", "dynamic-overwrite", "one-file-task",
      "fifty-files-task"})
  void outputFilesEqualTheSameJobOnTheLocalFileSystem(String job) throws Exception {
    List<String> files = onIndexfs.files(job);
    // Dynamic partition overwrite commits into a staging directory and renames the partitions out
    // of it, leaving its _SUCCESS behind to be deleted with it: Spark does that on every file system.
    assertEquals(!job.equals("dynamic-overwrite"), files.stream().anyMatch(f -> f.endsWith("/_SUCCESS")),
        job + " has a _SUCCESS marker unless it overwrote partitions dynamically: " + files);
    assertFalse(files.stream().anyMatch(f -> f.contains("_temporary") || f.contains(".spark-staging")),
        job + " left no staging files: " + files);
    assertEquals(onLocal.files(job), files, job);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"text", "parquet", "csv", "multi-stage", "dynamic-overwrite", "one-file-task",
      "fifty-files-task"})
  void withLocalizedTaskAttemptsEveryJobGivesTheSameRowsAndFiles(String job) throws Exception {
    assertEquals(onLocal.rows(job), onIndexfsLocalized.rows(job), job);
    List<String> files = onIndexfsLocalized.files(job);
    assertFalse(files.stream().anyMatch(f -> f.contains("_temporary") || f.contains(".spark-staging")),
        job + " left no staging files: " + files);
    assertEquals(onLocal.files(job), files, job);
  }

  /**
   * Bytes, for the jobs whose bytes are the same on every run (one task, no shuffle: elsewhere the
   * row order within a part file follows the order shuffle blocks arrive in, run by run).
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"one-file-task", "fifty-files-task"})
  void withLocalizedTaskAttemptsTheFilesAreByteForByteThoseOfEveryOtherRun(String job) throws Exception {
    assertEquals(job.equals("one-file-task") ? 2 : 51, onLocal.digests(job).size(), "_SUCCESS and the data files");
    assertEquals(onLocal.digests(job), onIndexfs.digests(job), job);
    assertEquals(onLocal.digests(job), onIndexfsLocalized.digests(job), job);
  }

  @Test
  void aSparkTaskCostsTheSameRpcsForOneFileOrFiftyWithLocalizedAttempts() throws Exception {
    long strongOne = onlyTask(onIndexfs, "one-file-task");
    long strongFifty = onlyTask(onIndexfs, "fifty-files-task");
    long localizedOne = onlyTask(onIndexfsLocalized, "one-file-task");
    long localizedFifty = onlyTask(onIndexfsLocalized, "fifty-files-task");
    System.out.printf("calls per Spark write task (setupTask..commitTask): strong 1 file %d, 50 files %d; "
        + "localized 1 file %d, 50 files %d%n", strongOne, strongFifty, localizedOne, localizedFifty);
    assertTrue(strongFifty - strongOne >= 49, "strong: at least one RPC per file");
    assertEquals(localizedOne, localizedFifty, "localized: a constant per task");
  }

  /** The calls of the one metered write task of {@code job}. */
  private static long onlyTask(SparkSubmission.Run run, String job) throws Exception {
    Map<String, Long> calls = run.taskCalls(job);
    assertEquals(1, calls.size(), job + " writes with one task: " + calls);
    return calls.values().iterator().next();
  }

  @Test
  void wordCountsCoverEveryWordOfTheInput() throws Exception {
    long words = onIndexfs.rows("text").stream().mapToLong(l -> Long.parseLong(l.split("\t")[1])).sum();
    assertEquals(60_500, words);
  }

  @Test
  void dynamicPartitionOverwriteReplacesOnlyTheTouchedPartitions() throws Exception {
    Map<String, Integer> rowsPerDayAndBatch = new TreeMap<>();
    for (String row : onIndexfs.rows("dynamic-overwrite")) {
      String[] f = row.split(",");
      rowsPerDayAndBatch.merge("day " + f[2] + " " + f[1], 1, Integer::sum);
    }
    assertEquals(Map.of("day 1 first", 100, "day 2 first", 100, "day 3 second", 100, "day 4 second", 100,
        "day 5 second", 100), rowsPerDayAndBatch);
  }

  @Test
  void hadoopClientsSeeWhatSparkCommitted() throws Exception {
    try (FileSystem fs = SharedJobCluster.fileSystem(Target.INDEXFS)) {
      for (String dir : List.of("text-counts", "parquet-counts", "orders-csv", "categories", "category-report")) {
        OutputTree.assertCommitted(fs, new Path(BASE + "/" + dir));
      }
      List<String> events = List.of(fs.listStatus(new Path(BASE + "/events"))).stream()
          .map(s -> s.getPath().getName()).sorted().toList();
      assertEquals(List.of("day=1", "day=2", "day=3", "day=4", "day=5"), events, "no staging directory left");
    }
  }

  @Test
  void everyJobWasTimed() {
    assertEquals(List.of(JOBS), List.copyOf(onIndexfs.millis().keySet()));
  }
}
