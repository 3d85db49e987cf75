package org.indexfs.bench.cluster;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * One program on one emulated host: started inside the host's CPU slice (the shell that starts it
 * joins the slice's cgroups first, then execs {@code ip netns exec}, which execs the program — so
 * the program is that process, born in its slice). Everything it prints goes to a log file; lines
 * that are meant for the bench ({@code INDEXFS_…} and {@code NETDELAY_…} lines, the agent's {@code @@} replies) are
 * also kept, so the bench can wait for them. Standard input stays open for commands.
 */
final class HostProgram implements AutoCloseable {
  static final String REPLY = "@@ ";

  final String name;
  private final Process process;
  private final Path log;
  private final Writer stdin;
  private final List<String> kept = new ArrayList<>();

  private HostProgram(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
    this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
  }

  /** Starts {@code program} in namespace-exec prefix {@code nsExec}, joining the cgroups of {@code procsFiles}. */
  static HostProgram start(String name, List<String> nsExec, List<Path> procsFiles, List<String> program,
      Path dir, Path log) throws IOException {
    StringBuilder join = new StringBuilder();
    for (Path f : procsFiles) {
      join.append("echo $$ > '").append(f).append("' || exit 97; ");
    }
    List<String> command = new ArrayList<>(List.of("/bin/sh", "-c", join + "exec \"$@\"", "sh"));
    command.addAll(nsExec);
    command.addAll(program);
    Files.createDirectories(dir);
    Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    HostProgram h = new HostProgram(name, p, log);
    Thread pump = new Thread(h::pump, "output-" + name);
    pump.setDaemon(true);
    pump.start();
    return h;
  }

  private void pump() {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
         Writer out = Files.newBufferedWriter(log, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
             StandardOpenOption.APPEND)) {
      String line;
      while ((line = in.readLine()) != null) {
        out.write(line);
        out.write('\n');
        out.flush();
        if (line.startsWith("INDEXFS_") || line.startsWith("NETDELAY_") || line.startsWith(REPLY)) {
          synchronized (kept) {
            kept.add(line);
            kept.notifyAll();
          }
        }
      }
    } catch (IOException e) {
      // The process is gone; waiters see it through isAlive().
    } finally {
      synchronized (kept) {
        kept.notifyAll();
      }
    }
  }

  /** Waits for a kept line, from kept line number {@code from} on, that matches; returns its number. */
  int await(Predicate<String> match, int from, long timeoutMs) throws IOException, InterruptedException {
    long deadline = System.currentTimeMillis() + timeoutMs;
    synchronized (kept) {
      for (int i = from; ; i++) {
        while (i >= kept.size()) {
          long left = deadline - System.currentTimeMillis();
          if (left <= 0 || !process.isAlive()) {
            throw new IOException(name + (process.isAlive() ? " did not answer within " + timeoutMs + " ms"
                : " exited with status " + process.exitValue()) + "; see " + log);
          }
          kept.wait(Math.min(left, 200));
        }
        if (match.test(kept.get(i))) {
          return i;
        }
      }
    }
  }

  String kept(int i) {
    synchronized (kept) {
      return kept.get(i);
    }
  }

  int keptCount() {
    synchronized (kept) {
      return kept.size();
    }
  }

  /** Sends one line to the program's standard input. */
  void send(String line) throws IOException {
    stdin.write(line);
    stdin.write('\n');
    stdin.flush();
  }

  long pid() {
    return process.pid();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  Path log() {
    return log;
  }

  /** Waits for the program to end by itself; its exit status. */
  int waitFor(long timeoutMs) throws IOException, InterruptedException {
    if (!process.waitFor(timeoutMs, TimeUnit.MILLISECONDS)) {
      throw new IOException(name + " did not finish within " + timeoutMs + " ms; see " + log);
    }
    return process.exitValue();
  }

  /** SIGTERM (shutdown hooks run), SIGKILL after a few seconds; waits until it is gone. */
  @Override
  public void close() throws InterruptedException {
    if (!process.isAlive()) {
      return;
    }
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
  }
}
