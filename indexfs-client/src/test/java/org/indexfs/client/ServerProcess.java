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
  private static final String STANDING = "INDEXFS_STANDBY_READY ";

  private final Process process;
  private final Path log;
  private volatile String address;
  /** Completed with the address each time the process starts serving (a new future per change). */
  private volatile CompletableFuture<String> serving;
  private volatile CompletableFuture<Void> standing;

  private ServerProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
    this.serving = new CompletableFuture<>();
    this.standing = new CompletableFuture<>();
  }

  /** Starts a server with {@code conf} ({@code -D key=value} each) and waits until it serves. */
  static ServerProcess start(Map<String, String> conf, Path log) throws IOException, InterruptedException {
    return start(List.of(), conf, log);
  }

  /** As {@link #start(Map, Path)}, the command run through {@code prefix} (e.g. {@code ip netns exec h1}). */
  static ServerProcess start(List<String> prefix, Map<String, String> conf, Path log)
      throws IOException, InterruptedException {
    ServerProcess p = launch(prefix, conf, log);
    try {
      p.address = p.serving.get(60, TimeUnit.SECONDS);
      return p;
    } catch (ExecutionException | TimeoutException e) {
      p.process.destroyForcibly().waitFor();
      throw new IOException("Server process did not become ready; see " + log, e);
    }
  }

  /** Starts a standby ({@code --standby}) and waits until it follows the slot's journal. */
  static ServerProcess startStandby(List<String> prefix, Map<String, String> conf, Path log)
      throws IOException, InterruptedException {
    Map<String, String> c = new java.util.LinkedHashMap<>(conf);
    c.put("indexfs.server.standby", "true");
    ServerProcess p = launch(prefix, c, log);
    try {
      p.standing.get(120, TimeUnit.SECONDS);
      return p;
    } catch (ExecutionException | TimeoutException e) {
      p.process.destroyForcibly().waitFor();
      throw new IOException("Standby process did not start following; see " + log, e);
    }
  }

  private static ServerProcess launch(List<String> prefix, Map<String, String> conf, Path log) throws IOException {
    // ip netns exec execs the command: the process started is the server's JVM itself (kill -9 reaches it).
    List<String> command = new ArrayList<>(prefix);
    command.addAll(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:+UseSerialGC", "-Djava.net.preferIPv4Stack=true",
        "-cp", System.getProperty("java.class.path"),
        IndexFsServer.class.getName()));
    conf.forEach((k, v) -> command.add("-D" + k + "=" + v));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    ServerProcess p = new ServerProcess(process, log);
    Thread pump = new Thread(() -> p.pump(), "server-process-output");
    pump.setDaemon(true);
    pump.start();
    return p;
  }

  /** Waits until this process serves its slot (a standby taking over); returns its address. */
  String awaitServing(long timeoutMs) throws Exception {
    address = serving.get(timeoutMs, TimeUnit.MILLISECONDS);
    return address;
  }

  /** Waits until this process follows its slot as a standby again (a superseded active steps down). */
  void awaitStandby(long timeoutMs) throws Exception {
    standing.get(timeoutMs, TimeUnit.MILLISECONDS);
  }

  boolean isServing() {
    return serving.isDone() && !serving.isCompletedExceptionally();
  }

  /** Copies the child's output to the log (it would block on a full pipe) and spots the ready lines. */
  private void pump() {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
         Writer out = Files.newBufferedWriter(log, StandardCharsets.UTF_8,
             StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
      String line;
      while ((line = in.readLine()) != null) {
        out.write(line);
        out.write('\n');
        out.flush();
        if (line.startsWith(READY)) {
          standing = new CompletableFuture<>();
          serving.complete(line.substring(READY.length()).trim());
        } else if (line.startsWith(STANDING)) {
          if (serving.isDone()) {
            serving = new CompletableFuture<>();
          }
          standing.complete(null);
        }
      }
      IOException exited = new IOException("Server exited with " + process.waitFor());
      serving.completeExceptionally(exited);
      standing.completeExceptionally(exited);
    } catch (IOException | InterruptedException e) {
      serving.completeExceptionally(e);
      standing.completeExceptionally(e);
    }
  }

  /** The host:port the server announced. */
  String address() {
    return address;
  }

  long pid() {
    return process.pid();
  }

  /** SIGSTOP / SIGCONT: the process pauses, as on a stalled machine, and resumes. */
  void signal(String name) throws Exception {
    new ProcessBuilder("kill", "-" + name, String.valueOf(process.pid())).inheritIO().start().waitFor();
  }

  /** Sends SIGKILL without waiting. */
  void destroy() {
    process.destroyForcibly();
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
