package org.indexfs.it;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

/**
 * A child JVM with stock Hadoop and no IndexFS: this JVM's classpath less every entry that holds an
 * {@code org.indexfs} class (the IndexFS modules, the gateway, these tests) and RocksDB, configured
 * only by a {@code core-site.xml} it is given. Each run logs every class the JVM loads
 * ({@code -Xlog:class+load}), so a test can show which file system served it and that nothing of
 * IndexFS was loaded.
 */
final class StockHadoopJvm {
  private static List<String> classpath;

  private final Path work;

  /** A JVM configured by {@code <work>/core-site.xml}, holding {@code coreSite}. */
  StockHadoopJvm(Path work, Map<String, String> coreSite) throws IOException {
    this.work = work;
    Files.createDirectories(work);
    try (Writer w = Files.newBufferedWriter(work.resolve("core-site.xml"), StandardCharsets.UTF_8)) {
      w.write("<?xml version=\"1.0\"?>\n<configuration>\n");
      for (Map.Entry<String, String> e : coreSite.entrySet()) {
        w.write("  <property><name>" + e.getKey() + "</name><value>" + e.getValue() + "</value></property>\n");
      }
      w.write("</configuration>\n");
    }
  }

  /** This JVM's classpath without IndexFS (computed once: every jar is opened). */
  static synchronized List<String> classpath() {
    if (classpath == null) {
      classpath = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
          .filter(e -> !e.contains("rocksdbjni") && !holdsIndexfsClasses(Path.of(e)))
          .toList();
    }
    return classpath;
  }

  /** Whether a classpath entry (a jar or a class directory) has anything under {@code org/indexfs/}. */
  static boolean holdsIndexfsClasses(Path entry) {
    try {
      if (Files.isDirectory(entry)) {
        return Files.exists(entry.resolve("org/indexfs"));
      }
      if (!Files.isRegularFile(entry)) {
        return false;
      }
      try (ZipFile zip = new ZipFile(entry.toFile())) {
        return zip.stream().anyMatch(z -> z.getName().startsWith("org/indexfs/"));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read classpath entry " + entry, e);
    }
  }

  /** The examples jar ({@code hadoop-mapreduce-examples}) on that classpath. */
  static String examplesJar() {
    return classpath().stream().filter(e -> e.contains("hadoop-mapreduce-examples")).findFirst().orElseThrow();
  }

  /** What one run left: its exit value, its output and the classes it loaded. */
  record Run(int exit, Path log, Path classLog) {
    String output() {
      return read(log);
    }

    /** Names of the classes the JVM loaded. */
    List<String> loadedClasses() throws IOException {
      // Lines read "[0.012s][info][class,load] java.lang.Object source: shared objects file".
      try (Stream<String> lines = Files.lines(classLog)) {
        return lines.map(l -> l.substring(l.indexOf("] ", l.indexOf("[class,load]")) + 2))
            .map(l -> l.split(" ", 2)[0]).collect(Collectors.toList());
      }
    }
  }

  /** Runs {@code mainClass args} and waits for it (at most 5 minutes). */
  Run run(String name, String mainClass, String... args) throws IOException, InterruptedException {
    Path log = work.resolve(name + ".log");
    Path classLog = work.resolve(name + ".classes");
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m", "-XX:+UseSerialGC",
        "-XX:TieredStopAtLevel=1", "-Djava.net.preferIPv4Stack=true",
        "-Xlog:class+load=info:file=" + classLog,
        "-cp", work + File.pathSeparator + String.join(File.pathSeparator, classpath()), mainClass));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new IOException(name + " did not finish in 5 minutes; log: " + log);
    }
    return new Run(p.exitValue(), log, classLog);
  }

  /**
   * {@code hadoop jar hadoop-mapreduce-examples.jar <program> args} with MapReduce's local job
   * runner (the tasks run in this child JVM), set as {@link MapReduceJobs#localRunner} sets it.
   */
  Run example(String name, String program, String... args) throws IOException, InterruptedException {
    List<String> all = new ArrayList<>(List.of(examplesJar(), program,
        "-D", "mapreduce.framework.name=local",
        "-D", "mapreduce.cluster.local.dir=" + work.resolve("mapred-local-" + name),
        "-D", "mapreduce.jobtracker.staging.root.dir=/tmp/staging",
        "-D", "hadoop.tmp.dir=" + work.resolve("hadoop-tmp"),
        "-D", "mapreduce.local.map.tasks.maximum=2",
        "-D", "mapreduce.local.reduce.tasks.maximum=2",
        "-D", "mapreduce.job.maps=2",
        "-D", "mapreduce.job.reduces=2",
        "-D", "mapreduce.task.io.sort.mb=16",
        "-D", "mapreduce.client.completion.pollinterval=50",
        "-D", "mapreduce.client.progressmonitor.pollinterval=50"));
    all.addAll(List.of(args));
    return run(name, "org.apache.hadoop.util.RunJar", all.toArray(String[]::new));
  }

  private static String read(Path log) {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }
}
