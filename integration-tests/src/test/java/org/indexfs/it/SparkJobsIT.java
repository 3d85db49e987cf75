package org.indexfs.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.indexfs.it.JobCluster.Target;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Spark 4 in local mode, submitted with the shaded client jar and
 * {@code spark.hadoop.fs.defaultFS=indexfs://...}: text, Parquet and CSV written and read back, a
 * multi-stage join and aggregation, and a dynamic partition overwrite. The same jobs run on
 * {@code file://} in a second submission; every result and every output file name must match.
 */
class SparkJobsIT {
  private static final String[] JOBS = {"text", "parquet", "csv", "multi-stage", "dynamic-overwrite"};
  private static final String BASE = "/spark-it";

  private static SparkSubmission.Run onIndexfs;
  private static SparkSubmission.Run onLocal;

  @BeforeAll
  static void submitOnIndexfsAndOnTheLocalFileSystem() throws Exception {
    SparkSubmission spark = SparkSubmission.fromSystemProperties();
    onIndexfs = spark.submit(SharedJobCluster.get().clientConf(Target.INDEXFS), BASE,
        SharedJobCluster.newWorkDir("spark-indexfs"));
    String localBase = SharedJobCluster.newWorkDir("spark-local-data").toAbsolutePath().toString();
    onLocal = spark.submit(Map.of("fs.defaultFS", "file:///"), localBase, SharedJobCluster.newWorkDir("spark-file"));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"text", "parquet", "csv", "multi-stage", "dynamic-overwrite"})
  void resultsEqualTheSameJobOnTheLocalFileSystem(String job) throws Exception {
    List<String> rows = onIndexfs.rows(job);
    assertFalse(rows.isEmpty(), job + " produced rows");
    assertEquals(onLocal.rows(job), rows, job);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"text", "parquet", "csv", "multi-stage", "dynamic-overwrite"})
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
