package org.indexfs.bench.cluster;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * HDFS's own NameNode ({@code org.apache.hadoop.hdfs.server.namenode.NameNode}, formatted and
 * started as {@code hdfs namenode} does) on a host of its own: its edit log on its own directory,
 * fsynced as in production (only MiniDFSCluster skips that), its audit log on, no DataNode (the
 * workloads' files are empty: create and close need none). One process per lock model: HDFS's
 * default global lock, or Hadoop 3.5's fine-grained lock
 * ({@code dfs.namenode.lock.model.provider.class}).
 */
final class NameNodeHost {
  /** The lock model of a NameNode: HDFS's default, or Hadoop 3.5's opt-in fine-grained lock. */
  enum Lock {
    GLOBAL("global lock", "org.apache.hadoop.hdfs.server.namenode.fgl.GlobalFSNamesystemLock"),
    FINE_GRAINED("fine-grained lock", "org.apache.hadoop.hdfs.server.namenode.fgl.FineGrainedFSNamesystemLock");

    final String label;
    final String className;

    Lock(String label, String className) {
      this.label = label;
      this.className = className;
    }
  }

  static final String LOCK_KEY = "dfs.namenode.lock.model.provider.class";
  static final int RPC_PORT = 8020;
  static final int HTTP_PORT = 9870;

  final Lock lock;
  final String host;
  private final EmulatedHosts net;
  private HostProgram process;

  NameNodeHost(EmulatedHosts net, Lock lock) {
    this.net = net;
    this.lock = lock;
    this.host = hostName(lock);
  }

  static String hostName(Lock lock) {
    return lock == Lock.GLOBAL ? "nn-global" : "nn-fgl";
  }

  String uri() {
    return "hdfs://" + net.ip(host) + ":" + RPC_PORT;
  }

  /** Formats ({@code -format -force -nonInteractive}) and starts the NameNode; waits until it leaves safe mode. */
  void start(Path work, Path log4j, String heap, int processors) throws Exception {
    try {
      Class.forName(lock.className);
    } catch (ClassNotFoundException e) {
      throw new IOException("This Hadoop (" + org.apache.hadoop.util.VersionInfo.getVersion() + ") has no "
          + lock.className + ": the NameNode's " + lock.label + " cannot be measured", e);
    }
    Path dir = work.resolve("hosts").resolve(host);
    Path etc = Files.createDirectories(dir.resolve("etc"));
    Path logs = Files.createDirectories(dir.resolve("logs"));
    String ip = net.ip(host);
    Map<String, String> core = new LinkedHashMap<>();
    core.put("fs.defaultFS", "hdfs://" + ip + ":" + RPC_PORT);
    core.put("hadoop.tmp.dir", dir.resolve("tmp").toString());
    core.putAll(ClusterSettings.groupMapping());
    Map<String, String> hdfs = new LinkedHashMap<>();
    hdfs.put("dfs.namenode.name.dir", dir.resolve("name").toUri().toString());
    hdfs.put("dfs.namenode.rpc-address", ip + ":" + RPC_PORT);
    hdfs.put("dfs.namenode.http-address", ip + ":" + HTTP_PORT);
    hdfs.put("dfs.namenode.safemode.extension", "0");   // no blocks to wait for
    hdfs.put("dfs.replication", "1");
    hdfs.put(LOCK_KEY, lock.className);
    writeSite(etc.resolve("core-site.xml"), core);
    writeSite(etc.resolve("hdfs-site.xml"), hdfs);
    String main = "org.apache.hadoop.hdfs.server.namenode.NameNode";
    HostProgram format = net.start(host, host + "-format", JavaCommand.server(heap, processors)
        .property("indexfs.log.dir", logs.toString()).main(log4j, etc, main, "-format", "-force", "-nonInteractive"));
    if (format.waitFor(300_000) != 0) {
      throw new IOException("NameNode -format failed; see " + format.log());
    }
    process = net.start(host, host, JavaCommand.server(heap, processors)
        .property("indexfs.log.dir", logs.toString()).property("hadoop.log.dir", logs.toString())
        .main(log4j, etc, main));
    awaitActive(300_000);
  }

  private static void writeSite(Path file, Map<String, String> props) throws IOException {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    props.forEach((k, v) -> xml.append("  <property><name>").append(k).append("</name><value>").append(v)
        .append("</value></property>\n"));
    Files.writeString(file, xml.append("</configuration>\n"), StandardCharsets.UTF_8);
  }

  private void awaitActive(long timeoutMs) throws Exception {
    long deadline = System.currentTimeMillis() + timeoutMs;
    Configuration c = new Configuration();
    c.setInt("ipc.client.connect.max.retries", 1);
    Exception last = null;
    while (System.currentTimeMillis() < deadline) {
      if (!process.isAlive()) {
        throw new IOException("The NameNode exited; see " + process.log());
      }
      try (DistributedFileSystem dfs = (DistributedFileSystem) FileSystem.newInstance(URI.create(uri()), c)) {
        if (!dfs.isInSafeMode()) {
          return;
        }
      } catch (IOException e) {
        last = e;
      }
      Thread.sleep(500);
    }
    throw new IOException("The NameNode did not leave safe mode; see " + process.log(), last);
  }

  HostProgram process() {
    return process;
  }

  /**
   * Proof of the lock model: the lock classes with live objects in the NameNode's heap
   * ({@code jcmd GC.class_histogram}), so a setting the NameNode ignored would show.
   */
  List<String> locksInHeap() throws IOException, InterruptedException {
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
        String.valueOf(process.pid()), "GC.class_histogram").redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor();
    List<String> found = new java.util.ArrayList<>();
    for (Lock l : Lock.values()) {
      if (Pattern.compile(Pattern.quote(l.className) + "\\s*$", Pattern.MULTILINE).matcher(out).find()) {
        found.add(l.className);
      }
    }
    return found;
  }

  static List<Lock> locks(boolean fineGrained) {
    return fineGrained ? List.of(Lock.GLOBAL, Lock.FINE_GRAINED) : List.of(Lock.GLOBAL);
  }
}
