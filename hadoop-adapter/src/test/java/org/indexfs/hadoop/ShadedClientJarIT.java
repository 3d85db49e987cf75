package org.indexfs.hadoop;

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

  @Test
  void hadoopFsShellWorksWithTheShadedJarAsTheOnlyIndexfsJar() throws Exception {
    LocalCluster cluster = IndexFsTestCluster.get();
    Path work = IndexFsTestCluster.newWorkDir("shaded-shell");
    cluster.writeClientConf(work);
    // Hadoop's own classpath: this JVM's, minus every IndexFS module and every library the
    // shaded jar relocates. What remains is what a Hadoop client already has.
    String hadoopOnly = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(e -> !e.contains("indexfs-") && !e.contains("hadoop-adapter") && !e.contains("/io/netty/")
            && !e.contains("protobuf-java-4") && !e.contains("/org/apache/curator/")
            && !e.contains("/org/apache/zookeeper/"))
        .collect(Collectors.joining(File.pathSeparator));
    String classpath = work + File.pathSeparator + shadedJar() + File.pathSeparator + hadoopOnly;
    shell(classpath, work, "-mkdir", "-p", "/shaded/a");
    String listing = shell(classpath, work, "-ls", "/shaded");
    assertTrue(listing.contains("/shaded/a"), listing);
  }

  private static String shell(String classpath, Path work, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-cp", classpath, "org.apache.hadoop.fs.FsShell"));
    command.addAll(List.of(args));
    Path out = work.resolve("shell-" + System.nanoTime() + ".out");
    Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "FsShell finished");
    String text = Files.readString(out);
    assertEquals(0, p.exitValue(), "FsShell " + String.join(" ", args) + " failed:\n" + text);
    return text.lines().filter(l -> !l.contains(" WARN ") && !l.startsWith("SLF4J")).collect(Collectors.joining("\n"));
  }

}
