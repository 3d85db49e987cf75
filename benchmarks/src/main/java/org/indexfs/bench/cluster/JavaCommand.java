package org.indexfs.bench.cluster;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Java command lines for the emulated hosts: this JVM's own class path (the benchmarks module
 * holds the server, the NameNode, ZooKeeper and the clients), with its configuration directories
 * swapped for the role's, and the flags of a small machine for the servers.
 */
final class JavaCommand {
  private final List<String> command = new ArrayList<>();

  private JavaCommand(String heap, List<String> flags) {
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xms" + heap);
    command.add("-Xmx" + heap);
    command.addAll(flags);
    command.add("-Djava.net.preferIPv4Stack=true");
  }

  /**
   * A server on a slice of {@code processors} CPUs (rounded up): the JVM sizes its thread pools
   * for that many (GC, JIT, common pool, Netty's default loops) and collects with one thread
   * (serial GC), as on a small machine; compiled fully (C2), measured once warm.
   */
  static JavaCommand server(String heap, int processors) {
    return new JavaCommand(heap, List.of("-XX:ActiveProcessorCount=" + processors, "-XX:+UseSerialGC"));
  }

  /** A process without a slice (ZooKeeper, the client hosts): the JVM's own choices. */
  static JavaCommand unsliced(String heap) {
    return new JavaCommand(heap, List.of());
  }

  /** The server JVM flags as the report states them. */
  static String serverFlags(String heap, int processors) {
    List<String> c = server(heap, processors).command;
    return String.join(" ", c.subList(1, c.size()));
  }

  JavaCommand property(String key, String value) {
    command.add("-D" + key + "=" + value);
    return this;
  }

  /** Logging from {@code log4j} (a file), then the class path with {@code confDir} first, then {@code main}. */
  List<String> main(Path log4j, Path confDir, String main, String... args) {
    List<String> c = new ArrayList<>(command);
    c.add("-Dlog4j.configuration=file:" + log4j);
    c.add("-cp");
    c.add((confDir == null ? "" : confDir + File.pathSeparator) + classPath());
    c.add(main);
    c.addAll(Arrays.asList(args));
    return c;
  }

  /**
   * This JVM's class path without its configuration directories ({@code conf/client}, the
   * embedded cluster's {@code conf}): each role gets its own settings and logging.
   */
  static String classPath() {
    List<String> out = new ArrayList<>();
    for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path p = Path.of(e);
      boolean confDir = Files.isDirectory(p) && (p.endsWith("conf") || p.endsWith(Path.of("conf", "client")));
      if (!e.isEmpty() && !confDir) {
        out.add(e);
      }
    }
    return String.join(File.pathSeparator, out);
  }

  /** Writes the logging of every process: warnings, and the audit log (both systems) into {@code indexfs.log.dir}. */
  static Path writeLogging(Path dir) throws IOException {
    Path file = dir.resolve("log4j-cluster.properties");
    Files.writeString(file, """
        log4j.rootLogger=INFO,console
        log4j.appender.console=org.apache.log4j.ConsoleAppender
        log4j.appender.console.target=System.err
        log4j.appender.console.layout=org.apache.log4j.PatternLayout
        log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %-5p %c{1} - %m%n
        log4j.logger.org.apache.zookeeper=WARN
        log4j.logger.org.apache.curator=WARN
        log4j.logger.org.apache.hadoop=WARN
        log4j.logger.org.apache.hadoop.util.NativeCodeLoader=ERROR
        # Both systems' audit logs, as conf/log4j.properties writes IndexFS's: HDFS's logger, file and layout.
        log4j.logger.org.apache.hadoop.hdfs.server.namenode.FSNamesystem.audit=INFO,RFAAUDIT
        log4j.additivity.org.apache.hadoop.hdfs.server.namenode.FSNamesystem.audit=false
        log4j.appender.RFAAUDIT=org.apache.log4j.RollingFileAppender
        log4j.appender.RFAAUDIT.File=${indexfs.log.dir}/hdfs-audit.log
        log4j.appender.RFAAUDIT.MaxFileSize=256MB
        log4j.appender.RFAAUDIT.MaxBackupIndex=20
        log4j.appender.RFAAUDIT.layout=org.apache.log4j.PatternLayout
        log4j.appender.RFAAUDIT.layout.ConversionPattern=%d{ISO8601} %p %c{2}: %m%n
        """);
    return file;
  }
}
