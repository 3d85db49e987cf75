package org.indexfs.bench.mdtest;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FileSystem;
import org.indexfs.bench.report.Table;

/**
 * How long a new client takes to its first answer (DESIGN §10): once in a fresh JVM ({@code hadoop
 * fs -ls} — Hadoop's own FsShell, each system on the same classpath and flags) and once in a running
 * process ({@code FileSystem.newInstance}, the first {@code listStatus}, {@code close}), HDFS and
 * IndexFS alternating, medians.
 */
final class FirstCall {
  record Times(double[] hdfsMs, double[] indexfsMs) {
    double hdfsMedian() {
      return median(hdfsMs);
    }

    double indexfsMedian() {
      return median(indexfsMs);
    }
  }

  private FirstCall() {}

  /** In this process: a new FileSystem, its first listing, its close. */
  static Times inProcess(BenchClusters clusters, int rounds) throws IOException {
    double[] h = new double[rounds];
    double[] i = new double[rounds];
    for (int r = 0; r < rounds; r++) {
      h[r] = timeFirstListing(clusters.hdfsClientFactory());
      i[r] = timeFirstListing(clusters.indexfsClientFactory());
    }
    return new Times(h, i);
  }

  interface Opener {
    FileSystem open() throws IOException;
  }

  private static double timeFirstListing(Opener opener) throws IOException {
    long t0 = System.nanoTime();
    try (FileSystem fs = opener.open()) {
      fs.listStatus(new org.apache.hadoop.fs.Path("/bench"));
    }
    return (System.nanoTime() - t0) / 1e6;
  }

  /**
   * In a fresh JVM each time: {@code FsShell -ls /bench}, exactly as {@code hadoop fs -ls} runs —
   * with a configuration directory holding the system's {@code core-site.xml} first on the
   * classpath, as {@code HADOOP_CONF_DIR} is.
   */
  static Times freshJvm(BenchClusters clusters, int rounds, Path work) throws IOException, InterruptedException {
    double[] h = new double[rounds];
    double[] i = new double[rounds];
    URI hdfs = clusters.hdfsUri();
    URI indexfs = clusters.indexfsUri(true);
    Path hdfsConf = confDir(work.resolve("conf-hdfs"), Map.of("fs.defaultFS", hdfs.toString()));
    Map<String, String> indexfsSettings = new java.util.TreeMap<>(clusters.indexfsClientConf(true));
    indexfsSettings.put("fs.defaultFS", indexfs.toString());
    Path indexfsConf = confDir(work.resolve("conf-indexfs"), indexfsSettings);
    for (int r = 0; r < rounds; r++) {
      h[r] = timeShell(hdfsConf, hdfs + "/bench", work);
      i[r] = timeShell(indexfsConf, indexfs + "bench", work);
    }
    return new Times(h, i);
  }

  private static Path confDir(Path dir, Map<String, String> settings) throws IOException {
    java.nio.file.Files.createDirectories(dir);
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    settings.forEach((k, v) -> xml.append("  <property><name>").append(k).append("</name><value>").append(v)
        .append("</value></property>\n"));
    java.nio.file.Files.writeString(dir.resolve("core-site.xml"), xml.append("</configuration>\n"));
    return dir;
  }

  private static double timeShell(Path confDir, String path, Path work) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx512m", "-cp", confDir + java.io.File.pathSeparator + System.getProperty("java.class.path"),
        "org.apache.hadoop.fs.FsShell"));
    cmd.add("-ls");
    cmd.add(path);
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(work.resolve("first-call.out").toFile());
    pb.environment().put("HADOOP_USER_NAME", BenchClusters.USER);
    long t0 = System.nanoTime();
    Process p = pb.start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IOException("hadoop fs -ls " + path + " did not finish in 120 s");
    }
    double ms = (System.nanoTime() - t0) / 1e6;
    if (p.exitValue() != 0) {
      throw new IOException("hadoop fs -ls " + path + " failed (exit " + p.exitValue() + "): "
          + java.nio.file.Files.readString(work.resolve("first-call.out")));
    }
    return ms;
  }

  static Table table(Times inProcess, Times fresh) {
    List<List<String>> rows = new ArrayList<>();
    rows.add(row("fresh JVM: hadoop fs -ls /bench", fresh));
    rows.add(row("in process: FileSystem.newInstance + listStatus + close", inProcess));
    return new Table("A new client's first answer (median ms over the rounds, HDFS and IndexFS alternating)",
        List.of("what", "HDFS ms", "IndexFS ms", "IndexFS / HDFS"), rows);
  }

  private static List<String> row(String what, Times t) {
    return List.of(what, String.format(Locale.ROOT, "%.1f", t.hdfsMedian()),
        String.format(Locale.ROOT, "%.1f", t.indexfsMedian()),
        String.format(Locale.ROOT, "%.2fx", t.indexfsMedian() / t.hdfsMedian()));
  }

  static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s.length == 0 ? 0 : s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
