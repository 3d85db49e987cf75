package org.indexfs.client;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.indexfs.server.IndexFsServer;

/**
 * {@code IndexFsServer.main} in a JVM of its own, so a test can kill it as an operator's
 * {@code kill -9} would: no shutdown hook, no close, only what reached the disk survives.
 * Its output is appended to a log file next to its data.
 */
final class ServerProcess implements AutoCloseable {
  private static final String READY = "INDEXFS_SERVER_READY ";

  private final Process process;
  private final String address;
  private final Path log;

  private ServerProcess(Process process, String address, Path log) {
    this.process = process;
    this.address = address;
    this.log = log;
  }

  /** Starts a server with {@code conf} ({@code -D key=value} each) and waits until it serves. */
  static ServerProcess start(Map<String, String> conf, Path log) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:+UseSerialGC", "-Djava.net.preferIPv4Stack=true",
        "-cp", System.getProperty("java.class.path"),
        IndexFsServer.class.getName()));
    conf.forEach((k, v) -> command.add("-D" + k + "=" + v));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    CompletableFuture<String> ready = new CompletableFuture<>();
    Thread pump = new Thread(() -> pump(process, log, ready), "server-process-output");
    pump.setDaemon(true);
    pump.start();
    try {
      return new ServerProcess(process, ready.get(60, TimeUnit.SECONDS), log);
    } catch (ExecutionException | TimeoutException e) {
      process.destroyForcibly().waitFor();
      throw new IOException("Server process did not become ready; see " + log, e);
    }
  }

  /** Copies the child's output to the log (it would block on a full pipe) and spots the ready line. */
  private static void pump(Process process, Path log, CompletableFuture<String> ready) {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
         Writer out = Files.newBufferedWriter(log, StandardCharsets.UTF_8,
             StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
      String line;
      while ((line = in.readLine()) != null) {
        out.write(line);
        out.write('\n');
        out.flush();
        if (line.startsWith(READY)) {
          ready.complete(line.substring(READY.length()).trim());
        }
      }
      ready.completeExceptionally(new IOException("Server exited with " + process.waitFor() + " before it was ready"));
    } catch (IOException | InterruptedException e) {
      ready.completeExceptionally(e);
    }
  }

  /** The host:port the server announced. */
  String address() {
    return address;
  }

  long pid() {
    return process.pid();
  }

  /** SIGKILL (what {@link Process#destroyForcibly()} sends on Linux); returns the exit status. */
  int kill() throws InterruptedException {
    return process.destroyForcibly().waitFor();
  }

  Path log() {
    return log;
  }

  /** A clean stop: SIGTERM runs the server's shutdown hook; SIGKILL if it hangs. */
  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
  }
}
