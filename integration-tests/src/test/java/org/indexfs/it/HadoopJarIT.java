package org.indexfs.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.indexfs.it.JobCluster.Target;
import org.junit.jupiter.api.Test;

/**
 * {@code HADOOP_CLASSPATH=<shaded jar> hadoop jar hadoop-mapreduce-examples.jar wordcount in out}:
 * Hadoop's {@code RunJar} in a child JVM whose classpath is Hadoop's own (this JVM's, minus every
 * IndexFS module and every library the shaded jar relocates) plus the shaded jar, configured only
 * by a core-site.xml naming {@code fs.defaultFS=indexfs://...}.
 */
class HadoopJarIT {

  @Test
  void wordCountRunsWithTheShadedJarOnHadoopClasspath() throws Exception {
    String base = "/hadoop-jar";
    try (FileSystem fs = SharedJobCluster.fileSystem(Target.INDEXFS)) {
      try (FSDataOutputStream out = fs.create(new Path(base + "/in/words.txt"))) {
        out.write("to be or not to be\nthat is the question\n".getBytes(StandardCharsets.UTF_8));
      }
      java.nio.file.Path work = SharedJobCluster.newWorkDir("hadoop-jar");
      writeCoreSite(work, SharedJobCluster.get().clientConf(Target.INDEXFS));
      List<String> hadoopClasspath = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
          .filter(e -> !e.contains("indexfs-") && !e.contains("hadoop-adapter") && !e.contains("integration-tests")
              && !e.contains("/io/netty/") && !e.contains("protobuf-java-4") && !e.contains("/org/apache/curator/")
              && !e.contains("/org/apache/zookeeper/"))
          .toList();
      String examplesJar = hadoopClasspath.stream().filter(e -> e.contains("hadoop-mapreduce-examples")).findFirst()
          .orElseThrow();
      String classpath = work + File.pathSeparator + Stream.concat(
          Stream.of(System.getProperty("indexfs.shaded.jar")), hadoopClasspath.stream())
          .collect(Collectors.joining(File.pathSeparator));

      List<String> command = new ArrayList<>(List.of(
          java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m",
          "-cp", classpath, "org.apache.hadoop.util.RunJar", examplesJar, "wordcount",
          "-D", "mapreduce.framework.name=local",
          "-D", "mapreduce.cluster.local.dir=" + work.resolve("mapred-local"),
          "-D", "mapreduce.jobtracker.staging.root.dir=/tmp/staging",
          "-D", "hadoop.tmp.dir=" + work.resolve("hadoop-tmp"),
          base + "/in", base + "/out"));
      java.nio.file.Path log = work.resolve("hadoop-jar.log");
      Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      assertTrue(p.waitFor(5, TimeUnit.MINUTES), "hadoop jar finished");
      assertEquals(0, p.exitValue(), () -> "hadoop jar wordcount failed:\n" + read(log));

      OutputTree.assertCommitted(fs, new Path(base + "/out"));
      Map<String, String> counts = new TreeMap<>();
      for (String line : OutputTree.partLines(fs, new Path(base + "/out"))) {
        counts.put(line.split("\t")[0], line.split("\t")[1]);
      }
      assertEquals(Map.of("to", "2", "be", "2", "or", "1", "not", "1", "that", "1", "is", "1", "the", "1",
          "question", "1"), counts);
    }
  }

  private static void writeCoreSite(java.nio.file.Path dir, Map<String, String> conf) throws Exception {
    try (Writer w = Files.newBufferedWriter(dir.resolve("core-site.xml"), StandardCharsets.UTF_8)) {
      w.write("<?xml version=\"1.0\"?>\n<configuration>\n");
      for (Map.Entry<String, String> e : conf.entrySet()) {
        w.write("  <property><name>" + e.getKey() + "</name><value>" + e.getValue() + "</value></property>\n");
      }
      w.write("</configuration>\n");
    }
  }

  private static String read(java.nio.file.Path log) {
    try {
      return Files.readString(log);
    } catch (java.io.IOException e) {
      return "(no log: " + e + ")";
    }
  }
}
