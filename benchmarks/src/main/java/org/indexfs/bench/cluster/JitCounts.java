package org.indexfs.bench.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.indexfs.bench.report.Table;

/**
 * How warm the servers were: what each server JVM's JIT compiled, read with {@code jstat -compiler}
 * (from the JVM's performance-data file: no attach, nothing runs in the server) at the end of the
 * warm-up and again after the measured rounds. What it compiled in between ran during timed runs.
 */
final class JitCounts {
  record Count(long compiled, double seconds) {}

  private final Map<String, Count> afterWarmUp = new LinkedHashMap<>();
  private final Map<String, Count> atEnd = new LinkedHashMap<>();

  static Count read(long pid) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jstat").toString(), "-compiler",
        String.valueOf(pid)).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor();
    String[] lines = out.trim().split("\n");
    if (lines.length < 2 || !lines[0].trim().startsWith("Compiled")) {
      throw new IOException("jstat -compiler " + pid + ": " + out.trim());
    }
    String[] f = lines[1].trim().split("\\s+");
    return new Count(Long.parseLong(f[0]), Double.parseDouble(f[3]));
  }

  void warmedUp(Map<String, HostProgram> servers) throws IOException, InterruptedException {
    for (Map.Entry<String, HostProgram> e : servers.entrySet()) {
      afterWarmUp.put(e.getKey(), read(e.getValue().pid()));
    }
  }

  void ended(Map<String, HostProgram> servers) throws IOException, InterruptedException {
    for (Map.Entry<String, HostProgram> e : servers.entrySet()) {
      atEnd.put(e.getKey(), read(e.getValue().pid()));
    }
  }

  /** Per server JVM group (a cluster's slots, a NameNode): methods compiled by the warm-up's end and during the rounds. */
  Table table() {
    Map<String, long[]> compiled = new LinkedHashMap<>();
    Map<String, double[]> seconds = new LinkedHashMap<>();
    for (Map.Entry<String, Count> e : atEnd.entrySet()) {
      String group = e.getKey().replaceAll("-slot\\d+$", " slots");
      Count w = afterWarmUp.get(e.getKey());
      long[] c = compiled.computeIfAbsent(group, k -> new long[3]);
      c[0] += w.compiled();
      c[1] += e.getValue().compiled() - w.compiled();
      c[2]++;
      double[] s = seconds.computeIfAbsent(group, k -> new double[2]);
      s[0] += w.seconds();
      s[1] += e.getValue().seconds() - w.seconds();
    }
    List<List<String>> rows = new ArrayList<>();
    compiled.forEach((g, c) -> rows.add(List.of(g, String.valueOf(c[2]),
        String.format(Locale.ROOT, "%,d (%.1f s)", c[0], seconds.get(g)[0]),
        String.format(Locale.ROOT, "%,d (%.1f s)", c[1], seconds.get(g)[1]))));
    return new Table("Warm: what the server JVMs' JIT compiled (methods, and the compiler's time) by the end of the"
        + " warm-up, and during the measured rounds (jstat -compiler)",
        List.of("server JVMs", "processes", "by the warm-up's end", "during the measured rounds"), rows);
  }
}
