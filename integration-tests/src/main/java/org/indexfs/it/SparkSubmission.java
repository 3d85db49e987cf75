package org.indexfs.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the spark-jobs application the way a Spark user does: {@code spark-submit --master local[2]
 * --jars <the shaded IndexFS client jar> --conf spark.hadoop.fs.defaultFS=...}, in a child JVM
 * whose classpath is Spark's own (spark-jobs' resolved dependencies: Spark 4 with its Hadoop 3.4
 * client, Netty, Guava, protobuf, Curator and ZooKeeper). IndexFS reaches that JVM only through
 * the shaded jar, so a clash would show here.
 */
public final class SparkSubmission {
  /**
   * The JVM options Spark's own launcher adds on Java 17 ({@code JavaModuleOptions} in
   * spark-launcher): Spark reaches into JDK internals and fails without them.
   */
  private static final List<String> SPARK_JVM_OPTIONS = List.of(
      "-XX:+IgnoreUnrecognizedVMOptions",
      "--add-modules=jdk.incubator.vector",
      "--add-opens=java.base/java.lang=ALL-UNNAMED",
      "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
      "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
      "--add-opens=java.base/java.io=ALL-UNNAMED",
      "--add-opens=java.base/java.net=ALL-UNNAMED",
      "--add-opens=java.base/java.nio=ALL-UNNAMED",
      "--add-opens=java.base/java.util=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
      "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
      "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
      "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
      "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
      "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
      "--add-opens=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
      "-Djdk.reflect.useDirectMethodHandle=false",
      "-Dio.netty.tryReflectionSetAccessible=true");
  private static final String MAIN = "org.indexfs.it.spark.SparkJobsMain";

  private final Path sparkJobsTarget;
  private final Path shadedJar;

  /**
   * {@code sparkJobsTarget}: spark-jobs' {@code target/} (its jar and {@code classpath.txt});
   * {@code shadedJar}: hadoop-adapter's shaded client jar.
   */
  public SparkSubmission(Path sparkJobsTarget, Path shadedJar) {
    this.sparkJobsTarget = sparkJobsTarget;
    this.shadedJar = shadedJar;
    requireFile(shadedJar, "the shaded client jar (mvn package builds it in hadoop-adapter/target)");
    requireFile(sparkJobsTarget.resolve("classpath.txt"), "spark-jobs' classpath (mvn package writes it)");
  }

  /** Paths from the system properties the build sets ({@code indexfs.spark.jobs.dir}, {@code indexfs.shaded.jar}). */
  public static SparkSubmission fromSystemProperties() {
    return new SparkSubmission(Path.of(System.getProperty("indexfs.spark.jobs.dir", "spark-jobs/target")),
        Path.of(System.getProperty("indexfs.shaded.jar", "hadoop-adapter/target/missing-shaded.jar")));
  }

  /** What one submission left: per-job rows and file listings under {@code out}, and wall times. */
  public record Run(Path out, Map<String, Long> millis) {
    public List<String> rows(String job) throws IOException {
      return Files.readAllLines(out.resolve(job + ".rows"), StandardCharsets.UTF_8);
    }

    public List<String> files(String job) throws IOException {
      return Files.readAllLines(out.resolve(job + ".files"), StandardCharsets.UTF_8);
    }

    /** Per output file, its SHA-256 ("path TAB hex"). */
    public List<String> digests(String job) throws IOException {
      return Files.readAllLines(out.resolve(job + ".digests"), StandardCharsets.UTF_8);
    }

    /** Client calls of each task attempt the job's metered committer saw, by attempt id. */
    public Map<String, Long> taskCalls(String job) throws IOException {
      Map<String, Long> calls = new LinkedHashMap<>();
      for (String line : Files.readAllLines(out.resolve(job + ".task-calls"), StandardCharsets.UTF_8)) {
        String[] kv = line.split("\t");
        calls.put(kv[0], Long.parseLong(kv[1]));
      }
      return calls;
    }
  }

  /**
   * Submits the jobs with {@code hadoopConf} as {@code spark.hadoop.*} settings (at least
   * {@code fs.defaultFS}), working under {@code base} on that file system; {@code work} is a local
   * directory for the results, Spark's scratch space and the log.
   */
  public Run submit(Map<String, String> hadoopConf, String base, Path work) throws IOException, InterruptedException {
    return submit(hadoopConf, base, work, true);
  }

  /**
   * As {@link #submit}, without the shaded IndexFS jar and without {@code fs.indexfs.impl}: Spark
   * as it comes, for an {@code hdfs://} file system. The child JVM logs every class it loads to
   * {@code <work>/classes.log} ({@code -Xlog:class+load}).
   */
  public Run submitStock(Map<String, String> hadoopConf, String base, Path work)
      throws IOException, InterruptedException {
    return submit(hadoopConf, base, work, false);
  }

  private Run submit(Map<String, String> hadoopConf, String base, Path work, boolean withIndexfs)
      throws IOException, InterruptedException {
    Files.createDirectories(work);
    Path out = work.resolve("results");
    Path log = work.resolve("spark-submit.log");
    Path log4j = work.resolve("log4j2.properties");
    Files.writeString(log4j, "rootLogger.level = warn\nrootLogger.appenderRef.stdout.ref = console\n"
        + "appender.console.type = Console\nappender.console.name = console\n"
        + "appender.console.layout.type = PatternLayout\n"
        + "appender.console.layout.pattern = %d{ISO8601} %p %c{1}: %m%n%ex\n");
    String classpath = Files.readString(sparkJobsTarget.resolve("classpath.txt")).strip();

    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx1g");
    command.addAll(SPARK_JVM_OPTIONS);
    command.add("-Dlog4j2.configurationFile=" + log4j.toUri());
    if (!withIndexfs) {
      command.add("-Xlog:class+load=info:file=" + work.resolve("classes.log"));
    }
    command.addAll(List.of("-cp", classpath, "org.apache.spark.deploy.SparkSubmit"));
    command.addAll(List.of("--master", "local[2]", "--deploy-mode", "client"));
    if (withIndexfs) {
      command.addAll(List.of("--jars", shadedJar.toString()));
    }
    Map<String, String> sparkConf = new LinkedHashMap<>();
    hadoopConf.forEach((k, v) -> sparkConf.put("spark.hadoop." + k, v));
    if (withIndexfs) {
      // spark-submit adds --jars to its class loader after Hadoop has already scanned
      // META-INF/services for file systems (it resolves the jars' own paths through FileSystem), so
      // the scheme is named explicitly: the one setting --jars needs beyond core-site.xml's.
      sparkConf.put("spark.hadoop.fs.indexfs.impl", "org.indexfs.hadoop.IndexFileSystem");
    }
    sparkConf.put("spark.ui.enabled", "false");
    sparkConf.put("spark.sql.shuffle.partitions", "4");
    sparkConf.put("spark.local.dir", work.resolve("spark-local").toString());
    sparkConf.put("spark.driver.host", "127.0.0.1");
    sparkConf.forEach((k, v) -> command.addAll(List.of("--conf", k + "=" + v)));
    command.addAll(List.of("--class", MAIN, sparkJobsJar().toString(), "--base", base, "--out", out.toString()));

    Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!p.waitFor(10, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new IOException("spark-submit did not finish in 10 minutes; log: " + log);
    }
    if (p.exitValue() != 0) {
      List<String> lines = Files.readAllLines(log);
      throw new IOException("spark-submit exited with " + p.exitValue() + "; last lines of " + log + ":\n"
          + String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size())));
    }
    Map<String, Long> millis = new LinkedHashMap<>();
    for (String line : Files.readAllLines(out.resolve("times.tsv"))) {
      String[] kv = line.split("\t");
      millis.put(kv[0], Long.parseLong(kv[1]));
    }
    return new Run(out, millis);
  }

  /** What a stock submission's JVM loads classes from: Spark's classpath and the application's jar. */
  public List<Path> stockClasspath() throws IOException {
    List<Path> entries = new ArrayList<>();
    for (String e : Files.readString(sparkJobsTarget.resolve("classpath.txt")).strip().split(java.io.File.pathSeparator)) {
      entries.add(Path.of(e));
    }
    entries.add(sparkJobsJar());
    return entries;
  }

  private Path sparkJobsJar() throws IOException {
    try (var files = Files.list(sparkJobsTarget)) {
      return files.filter(f -> f.getFileName().toString().matches("spark-jobs-.*\\.jar")).findFirst()
          .orElseThrow(() -> new IOException("no spark-jobs jar in " + sparkJobsTarget + " (mvn package builds it)"));
    }
  }

  private static void requireFile(Path file, String what) {
    if (!Files.isRegularFile(file)) {
      throw new IllegalStateException("Missing " + what + ": " + file);
    }
  }
}
