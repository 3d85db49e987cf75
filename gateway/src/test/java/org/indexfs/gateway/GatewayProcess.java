package org.indexfs.gateway;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A gateway in a JVM of its own ({@code GatewayMain}, as {@code bin/indexfs gateway} runs it), on
 * a fixed port so it comes back where clients look for it, and killed with SIGKILL: nothing it
 * does on the way out can help the clients.
 */
final class GatewayProcess implements AutoCloseable {
  private final String name;
  private final int port;
  private final Map<String, String> settings;
  private final Path log;
  private Process process;

  GatewayProcess(String name, Map<String, String> settings, Path workDir) throws IOException {
    this.name = name;
    this.port = freePort();
    this.settings = settings;
    this.log = workDir.resolve(name + ".log");
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      s.setReuseAddress(true);
      return s.getLocalPort();
    }
  }

  int port() {
    return port;
  }

  synchronized void start() throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:+UseSerialGC", "-Djava.net.preferIPv4Stack=true",
        "-cp", System.getProperty("java.class.path"), GatewayMain.class.getName(),
        "-D", "indexfs.gateway.bind-host=127.0.0.1", "-D", "indexfs.gateway.port=" + port));
    settings.forEach((k, v) -> {
      cmd.add("-D");
      cmd.add(k + "=" + v);
    });
    process = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      if (Files.exists(log) && Files.readString(log).contains("INDEXFS_GATEWAY_READY hdfs://127.0.0.1:" + port)) {
        return;
      }
      if (!process.isAlive()) {
        throw new IOException("Gateway " + name + " exited: " + Files.readString(log));
      }
      Thread.sleep(100);
    }
    throw new IOException("Gateway " + name + " did not start in 120 s: " + Files.readString(log));
  }

  /** SIGKILL, and waits until the process is gone. */
  synchronized void kill() throws InterruptedException {
    Files.exists(log); // keep the log for the report
    process.destroyForcibly().waitFor();
    // A fresh start must find the ready line of its own run only.
    try {
      Files.writeString(log, "--- killed ---\n", java.nio.file.StandardOpenOption.APPEND);
      Path old = log.resolveSibling(name + "-" + System.nanoTime() + ".log");
      Files.move(log, old);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Override
  public synchronized void close() throws InterruptedException {
    if (process != null && process.isAlive()) {
      process.destroy();
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
    }
  }
}
