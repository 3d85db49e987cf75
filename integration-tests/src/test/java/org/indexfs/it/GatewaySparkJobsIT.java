package org.indexfs.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.indexfs.it.JobCluster.Target;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The spark-jobs application (text, Parquet, CSV, a multi-stage join, a dynamic partition
 * overwrite) submitted as Spark comes: no {@code --jars}, no {@code fs.indexfs.impl}, only
 * {@code spark.hadoop.fs.defaultFS=hdfs://<gateway>}. Spark's own Hadoop client (3.4, not this
 * project's 3.5) is the one that talks to the gateway. The same submission against the
 * MiniDFSCluster's NameNode gives the same rows and the same files.
 */
class GatewaySparkJobsIT {
  /** The application's own classes (the user's job); nothing else of org.indexfs may be loaded. */
  private static final String APPLICATION = "org.indexfs.it.spark.";

  private static SparkSubmission spark;
  private static SparkSubmission.Run onGateway;
  private static SparkSubmission.Run onHdfs;
  private static Path gatewayWork;

  @BeforeAll
  static void submitThroughTheGatewayAndOnHdfs() throws Exception {
    spark = SparkSubmission.fromSystemProperties();
    gatewayWork = SharedJobCluster.newWorkDir("spark-gateway");
    onGateway = spark.submitStock(SharedJobCluster.get().gatewayClientConf(), "/gw-spark", gatewayWork);
    onHdfs = spark.submitStock(SharedJobCluster.get().clientConf(Target.HDFS), "/gw-spark",
        SharedJobCluster.newWorkDir("spark-hdfs"));
  }

  @Test
  void theSubmissionHadNoIndexfsClassButTheApplicationsAndUsedTheStockHdfsClient() throws Exception {
    for (Path entry : spark.stockClasspath()) {
      assertEquals(List.of(), indexfsEntriesOutsideTheApplication(entry), entry.toString());
    }
    List<String> loaded;
    try (Stream<String> lines = Files.lines(gatewayWork.resolve("classes.log"))) {
      loaded = lines.map(l -> l.substring(l.indexOf("] ", l.indexOf("[class,load]")) + 2).split(" ", 2)[0]).toList();
    }
    assertTrue(loaded.contains("org.apache.hadoop.hdfs.DistributedFileSystem"), "Spark used the stock hdfs:// client");
    assertTrue(loaded.contains(APPLICATION + "SparkJobsMain"), "the class log is the application's JVM's");
    assertEquals(List.of(), loaded.stream().filter(c -> c.startsWith("org.indexfs.") && !c.startsWith(APPLICATION))
        .toList(), "no IndexFS class loaded");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"text", "parquet", "csv", "multi-stage", "dynamic-overwrite", "one-file-task",
      "fifty-files-task"})
  void rowsAndFilesThroughTheGatewayEqualThoseOnHdfs(String job) throws Exception {
    List<String> rows = onGateway.rows(job);
    assertFalse(rows.isEmpty(), job + " produced rows");
    assertEquals(onHdfs.rows(job), rows, job);
    List<String> files = onGateway.files(job);
    assertFalse(files.stream().anyMatch(f -> f.contains("_temporary") || f.contains(".spark-staging")),
        job + " left no staging files: " + files);
    assertEquals(onHdfs.files(job), files, job);
  }

  /** One task and no shuffle: the bytes of these jobs' files are the same on every run. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"one-file-task", "fifty-files-task"})
  void filesThroughTheGatewayAreByteForByteThoseOnHdfs(String job) throws Exception {
    assertEquals(job.equals("one-file-task") ? 2 : 51, onHdfs.digests(job).size(), "_SUCCESS and the data files");
    assertEquals(onHdfs.digests(job), onGateway.digests(job), job);
  }

  private static List<String> indexfsEntriesOutsideTheApplication(Path entry) throws IOException {
    if (!Files.isRegularFile(entry)) {
      assertFalse(Files.exists(entry.resolve("org/indexfs")), entry.toString());
      return List.of();
    }
    try (ZipFile zip = new ZipFile(entry.toFile())) {
      return zip.stream().map(z -> z.getName())
          .filter(n -> n.startsWith("org/indexfs/") && !n.equals("org/indexfs/") && !n.equals("org/indexfs/it/"))
          .filter(n -> !n.startsWith(APPLICATION.replace('.', '/'))).toList();
    }
  }
}
