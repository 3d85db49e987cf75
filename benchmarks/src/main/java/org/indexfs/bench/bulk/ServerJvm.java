package org.indexfs.bench.bulk;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** One metadata server as its own JVM with a capped heap (the bench's "server at -Xmx1g"). */
final class ServerJvm implements AutoCloseable {
  private final Process process;

  private ServerJvm(Process process) {
    this.process = process;
  }

  static ServerJvm start(String heap, Map<String, String> conf, Path log) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx" + heap, "-cp", System.getProperty("java.class.path"), "org.indexfs.server.IndexFsServer"));
    conf.forEach((k, v) -> cmd.add("-D" + k + "=" + v));
    if (!conf.containsKey(org.indexfs.common.IndexFsConfig.SECURITY_ZOOKEEPER_DIGEST.name())) {
      // Simple mode needs the servers' ZooKeeper digest (a bench-only value: the ZooKeeper is the bench's own).
      cmd.add("-D" + org.indexfs.common.IndexFsConfig.SECURITY_ZOOKEEPER_DIGEST.name() + "=indexfs:bench-" + ProcessHandle.current().pid());
    }
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    CompletableFuture<Void> ready = new CompletableFuture<>();
    Thread pump = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
          var out = Files.newBufferedWriter(log)) {
        String line;
        while ((line = in.readLine()) != null) {
          out.write(line);
          out.write('\n');
          out.flush();
          if (line.startsWith("INDEXFS_SERVER_READY")) {
            ready.complete(null);
          }
        }
        ready.completeExceptionally(new IOException("server exited; see " + log));
      } catch (IOException e) {
        ready.completeExceptionally(e);
      }
    }, "server-output");
    pump.setDaemon(true);
    pump.start();
    ready.get(120, TimeUnit.SECONDS);
    return new ServerJvm(p);
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
  }
}
