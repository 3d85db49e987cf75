package org.indexfs.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.indexfs.it.JobCluster.Target;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The stock MapReduce examples with {@code fs.defaultFS=hdfs://<gateway>} and no IndexFS jar:
 * {@code hadoop jar hadoop-mapreduce-examples.jar} in a child JVM ({@link StockHadoopJvm}) whose
 * classpath has no IndexFS class and whose only configuration is that one setting. The local job
 * runner runs the tasks in that JVM, so the job client, the committer and every task use the stock
 * DistributedFileSystem. The same jobs, in the same kind of JVM, run on the MiniDFSCluster's own
 * NameNode; every output file must be byte for byte the same.
 */
class GatewayJobsIT {
  private static final long TERA_ROWS = 20_000;
  private static final String[] WORDS = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta",
      "iota", "kappa", "lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "tau", "upsilon"};

  private static Map<String, String> gateway;
  private static Map<String, String> hdfs;

  @BeforeAll
  static void startTheGateway() throws Exception {
    gateway = SharedJobCluster.get().gatewayClientConf();
    hdfs = SharedJobCluster.get().clientConf(Target.HDFS);
    assertTrue(gateway.get("fs.defaultFS").startsWith("hdfs://"), gateway.toString());
  }

  @Test
  void theJobJvmCannotLoadIndexfsButHasTheStockHdfsClient() throws Exception {
    StockHadoopJvm jvm = new StockHadoopJvm(SharedJobCluster.newWorkDir("gw-findclass"), gateway);
    // Hadoop's own FindClass: exit 0 when the class loads, non-zero when it is not found.
    // The file system and the gateway (the classpath has no other org.indexfs entry either: see below).
    for (String indexfs : List.of("org.indexfs.hadoop.IndexFileSystem", "org.indexfs.gateway.Gateway")) {
      StockHadoopJvm.Run r = jvm.run("find-" + indexfs, "org.apache.hadoop.util.FindClass", "load", indexfs);
      assertNotEquals(0, r.exit(), () -> indexfs + " must not load in the job's JVM:\n" + r.output());
    }
    StockHadoopJvm.Run dfs = jvm.run("find-dfs", "org.apache.hadoop.util.FindClass", "load",
        DistributedFileSystem.class.getName());
    assertEquals(0, dfs.exit(), dfs::output);
    // The test JVM serves the gateway from its classpath; the job's JVM has everything else of it.
    for (Class<?> c : List.of(org.indexfs.gateway.Gateway.class, org.indexfs.hadoop.IndexFileSystem.class,
        org.indexfs.client.IndexFsClient.class, org.indexfs.common.IndexFsConfig.class)) {
      String source = java.nio.file.Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
      assertFalse(StockHadoopJvm.classpath().contains(source), source);
    }
    assertTrue(StockHadoopJvm.classpath().stream().anyMatch(e -> e.contains("hadoop-hdfs-client")));
  }

  @Test
  void wordCountThroughTheGatewayWritesWhatItWritesOnHdfs() throws Exception {
    String base = "/gw-jobs/wordcount";
    Map<String, Map<String, String>> out = new TreeMap<>();
    for (Map.Entry<String, Map<String, String>> target : targets().entrySet()) {
      try (FileSystem fs = stockClient(target.getValue())) {
        writeWords(fs, base + "/in/large.txt", 30_000, 1);
        writeWords(fs, base + "/in/small.txt", 200, 2);
      }
      StockHadoopJvm jvm = new StockHadoopJvm(SharedJobCluster.newWorkDir("gw-wc-" + target.getKey()),
          target.getValue());
      assertRan(jvm.example("wordcount", "wordcount", base + "/in", base + "/out"));
      out.put(target.getKey(), digests(target.getValue(), base + "/out"));
    }
    assertEquals(List.of("_SUCCESS", "part-r-00000", "part-r-00001"), List.copyOf(out.get("gateway").keySet()));
    assertEquals(out.get("hdfs"), out.get("gateway"), "wordcount's output through the gateway = on HDFS");
  }

  @Test
  void teraSortAndTeraValidateThroughTheGatewayWriteWhatTheyWriteOnHdfs() throws Exception {
    String base = "/gw-jobs/tera";
    Map<String, Map<String, String>> out = new TreeMap<>();
    for (Map.Entry<String, Map<String, String>> target : targets().entrySet()) {
      StockHadoopJvm jvm = new StockHadoopJvm(SharedJobCluster.newWorkDir("gw-tera-" + target.getKey()),
          target.getValue());
      assertRan(jvm.example("teragen", "teragen", String.valueOf(TERA_ROWS), base + "/gen"));
      assertRan(jvm.example("terasort", "terasort", base + "/gen", base + "/sorted"));
      assertRan(jvm.example("teravalidate", "teravalidate", base + "/sorted", base + "/validate"));
      Map<String, String> files = new TreeMap<>();
      for (String dir : List.of("gen", "sorted", "validate")) {
        digests(target.getValue(), base + "/" + dir).forEach((f, d) -> files.put(dir + "/" + f, d));
      }
      out.put(target.getKey(), files);
      try (FileSystem fs = stockClient(target.getValue())) {
        List<String> report = OutputTree.partLines(fs, new Path(base + "/validate"));
        assertEquals(1, report.size(), "teravalidate found no error, only its checksum line: " + report);
        assertTrue(report.get(0).startsWith("checksum\t"), report.toString());
        // Every row sorted into the parts (the directory also holds TeraSort's _partition.lst).
        assertEquals(TERA_ROWS * 100, java.util.Arrays.stream(
            fs.listStatus(new Path(base + "/sorted"), p -> p.getName().startsWith("part-")))
            .mapToLong(org.apache.hadoop.fs.FileStatus::getLen).sum());
      }
    }
    assertTrue(out.get("gateway").containsKey("sorted/part-r-00001"), out.get("gateway").keySet()::toString);
    assertEquals(out.get("hdfs"), out.get("gateway"), "teragen/terasort/teravalidate through the gateway = on HDFS");
  }

  /** The gateway first, then the MiniDFSCluster's NameNode. */
  private static Map<String, Map<String, String>> targets() {
    Map<String, Map<String, String>> t = new java.util.LinkedHashMap<>();
    t.put("gateway", gateway);
    t.put("hdfs", hdfs);
    return t;
  }

  /** The run succeeded, its file system was the stock DistributedFileSystem, and no IndexFS class was loaded. */
  static void assertRan(StockHadoopJvm.Run run) throws IOException {
    assertEquals(0, run.exit(), run::output);
    List<String> loaded = run.loadedClasses();
    assertTrue(loaded.contains(DistributedFileSystem.class.getName()), "the job used the stock DistributedFileSystem");
    assertEquals(List.of(), loaded.stream().filter(c -> c.startsWith("org.indexfs.")).toList(),
        "no IndexFS class loaded by the job's JVM");
  }

  /** A stock DistributedFileSystem for {@code conf}, with nothing else configured. */
  private static FileSystem stockClient(Map<String, String> conf) throws IOException {
    Configuration c = new Configuration(false);
    c.addResource("core-default.xml");
    c.addResource("hdfs-default.xml");
    conf.forEach(c::set);
    FileSystem fs = FileSystem.newInstance(URI.create(conf.get("fs.defaultFS")), c);
    assertEquals(DistributedFileSystem.class, fs.getClass());
    return fs;
  }

  /** Every file under {@code dir}, by relative path, to the SHA-256 of its bytes. */
  private static Map<String, String> digests(Map<String, String> conf, String dir) throws Exception {
    Map<String, String> files = new TreeMap<>();
    try (FileSystem fs = stockClient(conf)) {
      OutputTree.assertCommitted(fs, new Path(dir));
      String prefix = fs.makeQualified(new Path(dir)).toUri().getPath() + "/";
      RemoteIterator<LocatedFileStatus> it = fs.listFiles(new Path(dir), true);
      while (it.hasNext()) {
        LocatedFileStatus f = it.next();
        try (var in = fs.open(f.getPath())) {
          byte[] bytes = in.readAllBytes();
          assertEquals(f.getLen(), bytes.length, f.getPath().toString());
          files.put(f.getPath().toUri().getPath().substring(prefix.length()),
              HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)));
        }
      }
    }
    assertFalse(files.isEmpty(), dir);
    return files;
  }

  private static void writeWords(FileSystem fs, String path, int words, long seed) throws IOException {
    Random random = new Random(seed);
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < words; i++) {
      text.append(WORDS[random.nextInt(WORDS.length)]).append(i % 12 == 11 ? '\n' : ' ');
    }
    try (FSDataOutputStream out = fs.create(new Path(path))) {
      out.write(text.toString().getBytes(StandardCharsets.UTF_8));
    }
  }
}
