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
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.server.IndexFsServer;

/**
 * One machine of a cluster: {@code IndexFsServer.main} in a JVM of its own running several slots
 * ({@code indexfs.server.slots}), each serving or standing by. Follows the process's per-slot lines
 * to tell which slots it serves; its output goes to a log file.
 */
final class MachineProcess implements AutoCloseable {
  private final Process process;
  private final Path log;
  private final Map<Integer, String> serving = new ConcurrentHashMap<>();
  private final Set<Integer> standing = ConcurrentHashMap.newKeySet();
  private final CompletableFuture<Void> ready = new CompletableFuture<>();

  private MachineProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  /** Starts the process with {@code conf} and waits until every slot serves or stands by. */
  static MachineProcess start(Map<String, String> conf, Path log) throws Exception {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx384m", "-XX:+UseSerialGC", "-Djava.net.preferIPv4Stack=true",
        "-cp", System.getProperty("java.class.path"), IndexFsServer.class.getName()));
    conf.forEach((k, v) -> command.add("-D" + k + "=" + v));
    MachineProcess m = new MachineProcess(new ProcessBuilder(command).redirectErrorStream(true).start(), log);
    Thread pump = new Thread(m::pump, "machine-process-output");
    pump.setDaemon(true);
    pump.start();
    try {
      m.ready.get(120, TimeUnit.SECONDS);
    } catch (Exception e) {
      m.process.destroyForcibly().waitFor();
      throw new IOException("Machine process did not start its slots (" + conf.get(IndexFsConfig.SERVER_SLOTS.name())
          + "); see " + log, e);
    }
    return m;
  }

  /** The slots this process serves now. */
  Set<Integer> serving() {
    return new TreeSet<>(serving.keySet());
  }

  /** The slots this process follows as a standby now. */
  Set<Integer> standing() {
    return new TreeSet<>(standing);
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
        String[] w = line.split(" ");
        if (w[0].equals("INDEXFS_SLOT_SERVING") && w.length == 3) {
          int slot = Integer.parseInt(w[1]);
          standing.remove(slot);
          serving.put(slot, w[2]);
        } else if (w[0].equals("INDEXFS_SLOT_STANDBY") && w.length == 2) {
          int slot = Integer.parseInt(w[1]);
          serving.remove(slot);
          standing.add(slot);
        } else if (w[0].equals("INDEXFS_PROCESS_READY")) {
          ready.complete(null);
        }
      }
      ready.completeExceptionally(new IOException("Machine process exited with " + process.waitFor()));
    } catch (IOException | InterruptedException | RuntimeException e) {
      ready.completeExceptionally(e);
    }
  }

  Path log() {
    return log;
  }

  /** SIGKILL, then wait: nothing of the process is left behind. */
  @Override
  public void close() throws InterruptedException {
    process.destroyForcibly().waitFor();
  }
}
