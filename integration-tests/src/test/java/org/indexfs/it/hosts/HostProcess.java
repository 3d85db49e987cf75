package org.indexfs.it.hosts;

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
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * One program on one host (run through {@code ip netns exec}, which execs it: the process is the
 * program itself, so {@code kill -9} reaches it). Its output goes to a log file; a test can wait for
 * a line in it.
 */
final class HostProcess implements AutoCloseable {
  final String name;
  private final Process process;
  private final Path log;
  private final List<String> lines = new ArrayList<>();

  private HostProcess(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
  }

  static HostProcess start(String name, List<String> command, Map<String, String> env, Path dir, Path log)
      throws IOException {
    ProcessBuilder b = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
    b.environment().putAll(env);
    HostProcess p = new HostProcess(name, b.start(), log);
    Thread pump = new Thread(p::pump, "output-" + name);
    pump.setDaemon(true);
    pump.start();
    return p;
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
        synchronized (lines) {
          lines.add(line);
          lines.notifyAll();
        }
      }
    } catch (IOException e) {
      // The process is gone; waiters see it through isAlive().
    } finally {
      synchronized (lines) {
        lines.notifyAll();
      }
    }
  }

  /** Waits for a line (from line number {@code from} on) that matches; returns its number. */
  int await(Predicate<String> match, int from, long timeoutMs) throws IOException, InterruptedException {
    long deadline = System.currentTimeMillis() + timeoutMs;
    synchronized (lines) {
      for (int i = from; ; i++) {
        while (i >= lines.size()) {
          long left = deadline - System.currentTimeMillis();
          if (left <= 0 || (!process.isAlive() && i >= lines.size())) {
            throw new IOException(name + (process.isAlive() ? " did not print the awaited line" : " exited with "
                + process.exitValue()) + "; see " + log);
          }
          lines.wait(Math.min(left, 200));
        }
        if (match.test(lines.get(i))) {
          return i;
        }
      }
    }
  }

  int lineCount() {
    synchronized (lines) {
      return lines.size();
    }
  }

  List<String> lines() {
    synchronized (lines) {
      return List.copyOf(lines);
    }
  }

  int waitFor(long timeoutMs) throws InterruptedException, IOException {
    if (!process.waitFor(timeoutMs, TimeUnit.MILLISECONDS)) {
      throw new IOException(name + " did not finish within " + timeoutMs + " ms; see " + log);
    }
    return process.exitValue();
  }

  int exitValue() {
    return process.exitValue();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  long pid() {
    return process.pid();
  }

  Path log() {
    return log;
  }

  /** SIGKILL, and wait for it to be gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly().waitFor();
  }

  /** SIGSTOP / SIGCONT. */
  void signal(String name) throws IOException, InterruptedException {
    new ProcessBuilder("kill", "-" + name, String.valueOf(process.pid())).inheritIO().start().waitFor();
  }

  @Override
  public void close() throws InterruptedException {
    kill();
  }
}
