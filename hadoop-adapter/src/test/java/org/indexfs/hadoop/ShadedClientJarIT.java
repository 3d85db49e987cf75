package org.indexfs.hadoop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.Test;

/**
 * The shaded client jar, as built: every third-party class it carries is relocated (so it cannot
 * clash with Hadoop's or Spark's copies), and with it alone beside Hadoop, {@code hadoop fs} works
 * against a live cluster.
 */
class ShadedClientJarIT {
  private static final String[] RELOCATED = {"io/netty/", "com/google/protobuf/", "com/google/common/",
      "org/apache/curator/", "org/apache/zookeeper/", "org/apache/jute/"};

  private static Path shadedJar() {
    Path jar = Path.of(System.getProperty("shaded.jar", "target/missing-shaded.jar"));
    assertTrue(Files.isRegularFile(jar), "shaded jar built at " + jar);
    return jar;
  }

  @Test
  void carriesNoUnrelocatedNettyProtobufGuavaCuratorOrZooKeeperClasses() throws IOException {
    List<String> leaked = new ArrayList<>();
    int relocated = 0;
    try (JarFile jar = new JarFile(shadedJar().toFile())) {
      for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
        String name = e.nextElement().getName();
        if (!name.endsWith(".class")) {
          continue;
        }
        for (String prefix : RELOCATED) {
          if (name.startsWith(prefix)) {
            leaked.add(name);
          }
          if (name.startsWith("org/indexfs/shaded/" + prefix)) {
            relocated++;
          }
        }
      }
      assertEquals(List.of(), leaked.stream().limit(20).toList(), "unrelocated third-party classes");
      assertTrue(relocated > 1000, "the relocated libraries are inside (" + relocated + " classes)");
      String services = new String(jar.getInputStream(jar.getEntry("META-INF/services/org.apache.hadoop.fs.FileSystem"))
          .readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(services.contains(IndexFileSystem.class.getName()), "indexfs:// is registered: " + services);
    }
  }

  /**
   * The relocated Netty finds its epoll library only under the prefixed name the build gives it:
   * a client of the shaded jar gets the same native transport as the servers and the benchmarks.
   */
  @Test
  void theShadedClientLoadsNettysNativeEpollUnderItsRelocatedName() throws Exception {
    Path work = Files.createTempDirectory(
        Files.createDirectories(Path.of(System.getProperty("test.build.data", "target/test-data"))), "epoll");
    Path check = work.resolve("CheckEpoll.java");
    Files.writeString(check, String.join("\n",
        "public class CheckEpoll {",
        "  public static void main(String[] a) throws Exception {",
        "    Class<?> e = Class.forName(\"org.indexfs.shaded.io.netty.channel.epoll.Epoll\");",
        "    System.out.println(org.indexfs.common.rpc.Transport.nativeEpoll() + \" \"",
        "        + e.getMethod(\"unavailabilityCause\").invoke(null));",
        "  }",
        "}", ""));
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m",
        "-cp", shadedJar().toString(), check.toString()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, out);
    String os = System.getProperty("os.name").toLowerCase(java.util.Locale.ROOT);
    String arch = System.getProperty("os.arch");
    boolean shipped = os.contains("linux") && (arch.equals("amd64") || arch.equals("aarch64"));
    assertEquals(shipped ? "true null" : "false", shipped ? out : out.split(" ")[0], out);
  }

  @Test
  void hadoopFsShellWorksWithTheShadedJarAsTheOnlyIndexfsJar() throws Exception {
    Shell shell = new Shell("shaded-shell");
    shell.ok("-mkdir", "-p", "/shaded/a");
    String listing = shell.ok("-ls", "/shaded");
    assertTrue(listing.contains("/shaded/a"), listing);
  }

  /** The README's walkthrough and more, each command's answer checked, through the shaded jar alone. */
  @Test
  void hadoopFsShellCommandsGiveTheirUsualAnswersThroughTheShadedJar() throws Exception {
    Shell shell = new Shell("shaded-shell-commands");
    byte[] large = new byte[300_000]; // past the inline limit: an HDFS object
    new Random(6).nextBytes(large);
    Path localLarge = Files.write(shell.work.resolve("large.bin"), large);
    Path localSmall = Files.writeString(shell.work.resolve("small.txt"), "small file\n");

    shell.ok("-mkdir", "-p", "/cmds/a/b");
    shell.ok("-put", localLarge.toString(), localSmall.toString(), "/cmds/a/");
    assertEquals(List.of("/cmds/a", "/cmds/a/b", "/cmds/a/large.bin", "/cmds/a/small.txt"), paths(shell.ok("-ls", "-R", "/cmds")));
    assertEquals("small file", shell.ok("-cat", "/cmds/a/small.txt"));
    Path fetched = shell.work.resolve("fetched.bin");
    shell.ok("-get", "/cmds/a/large.bin", fetched.toString());
    assertArrayEquals(large, Files.readAllBytes(fetched), "-get returns the bytes -put stored");

    shell.ok("-cp", "/cmds/a/large.bin", "/cmds/a/copy.bin");
    shell.ok("-mv", "/cmds/a/small.txt", "/cmds/a/b/moved.txt");
    assertEquals(1, shell.run("-test", "-e", "/cmds/a/small.txt").exit(), "the source of -mv is gone");
    assertEquals(0, shell.run("-test", "-f", "/cmds/a/b/moved.txt").exit());
    shell.ok("-appendToFile", localSmall.toString(), "/cmds/a/b/moved.txt");
    assertEquals("small file\nsmall file", shell.ok("-cat", "/cmds/a/b/moved.txt"));
    shell.ok("-touchz", "/cmds/a/empty");

    shell.ok("-chmod", "640", "/cmds/a/b/moved.txt");
    shell.ok("-setrep", "2", "/cmds/a/copy.bin");
    assertEquals("640 22 moved.txt", shell.ok("-stat", "%a %b %n", "/cmds/a/b/moved.txt"));
    assertEquals("2 300000 copy.bin", shell.ok("-stat", "%r %b %n", "/cmds/a/copy.bin"));

    long total = 2L * large.length + 22;
    // -du -s: size, space consumed, path. -count: directories, files, bytes, path.
    assertEquals(List.of(String.valueOf(total), "/cmds/a"), columns(shell.ok("-du", "-s", "/cmds/a"), 0, 2));
    assertEquals(List.of("2", "4", String.valueOf(total), "/cmds/a"), columns(shell.ok("-count", "/cmds/a"), 0, 1, 2, 3));

    shell.ok("-rm", "-r", "/cmds/a");
    assertEquals(1, shell.run("-test", "-d", "/cmds/a").exit(), "-rm -r removed the tree");
    assertEquals("", shell.ok("-ls", "/cmds"));
  }

  private static List<String> paths(String listing) {
    return listing.lines().filter(l -> !l.startsWith("Found ")).map(l -> l.substring(l.lastIndexOf(' ') + 1)).sorted().toList();
  }

  private static List<String> columns(String line, int... indexes) {
    String[] fields = line.strip().split("\\s+");
    return java.util.Arrays.stream(indexes).mapToObj(i -> fields[i]).toList();
  }

  /**
   * {@code hadoop fs} in a child JVM whose classpath is Hadoop's own (this JVM's, minus every
   * IndexFS module and every library the shaded jar relocates: what a Hadoop client already has)
   * plus the shaded jar, configured by a core-site.xml for the shared cluster.
   */
  private static final class Shell {
    private final Path work;
    private final String classpath;

    Shell(String name) throws IOException {
      LocalCluster cluster = IndexFsTestCluster.get();
      work = IndexFsTestCluster.newWorkDir(name);
      cluster.writeClientConf(work);
      // A user's hadoop fs logs warnings only (Hadoop's own conf/log4j.properties); without this,
      // the first log4j.properties on the test class path (hadoop-minikdc's: INFO to stdout) would
      // mix ZooKeeper's connection chatter into the answers checked here.
      Files.writeString(work.resolve("log4j.properties"), String.join("\n",
          "log4j.rootLogger=WARN,console",
          "log4j.appender.console=org.apache.log4j.ConsoleAppender",
          "log4j.appender.console.target=System.err",
          "log4j.appender.console.layout=org.apache.log4j.PatternLayout",
          "log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %p %c: %m%n", ""));
      String hadoopOnly = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
          .filter(e -> !e.contains("indexfs-") && !e.contains("hadoop-adapter") && !e.contains("/io/netty/")
              && !e.contains("protobuf-java-4") && !e.contains("/org/apache/curator/")
              && !e.contains("/org/apache/zookeeper/"))
          .collect(Collectors.joining(File.pathSeparator));
      classpath = work + File.pathSeparator + shadedJar() + File.pathSeparator + hadoopOnly;
    }

    record Result(int exit, String text, String errors) {}

    /**
     * Runs the command, expects success, and returns what it printed on stdout (what a script
     * capturing the answer sees); stderr may carry warnings, but no error log or stack trace.
     */
    String ok(String... args) throws Exception {
      Result r = run(args);
      assertEquals(0, r.exit(), "FsShell " + String.join(" ", args) + " failed:\n" + r.text() + "\n" + r.errors());
      List<String> bad = r.errors().lines()
          .filter(l -> l.contains(" ERROR ") || l.contains("Exception") || l.startsWith("\tat "))
          .toList();
      assertEquals(List.of(), bad, "FsShell " + String.join(" ", args) + " logged on stderr:\n" + r.errors());
      return r.text();
    }

    Result run(String... args) throws Exception {
      List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Xmx256m", "-cp", classpath, "org.apache.hadoop.fs.FsShell"));
      command.addAll(List.of(args));
      long n = System.nanoTime();
      Path out = work.resolve("shell-" + n + ".out");
      Path err = work.resolve("shell-" + n + ".err");
      Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
      assertTrue(p.waitFor(120, TimeUnit.SECONDS), "FsShell finished");
      String errors = Files.readString(err).lines()
          .filter(l -> !l.contains(" WARN ") && !l.startsWith("SLF4J") && !l.startsWith("log4j:"))
          .collect(Collectors.joining("\n"));
      return new Result(p.exitValue(), Files.readString(out).strip(), errors);
    }
  }
}
