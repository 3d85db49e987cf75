package org.indexfs.bench.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A CPU slice per emulated host: a cgroup of its own whose CFS bandwidth quota is the host's CPU
 * (0.1 = a tenth of one core, however many threads it runs), and whose CPU use is read from the
 * kernel's accounting. cgroup v1 ({@code cpu/<group>/cpu.cfs_quota_us} over {@code cpu.cfs_period_us},
 * usage from {@code cpuacct.usage}; the two controllers mounted together or apart) and cgroup v2
 * ({@code cpu.max}, {@code cpu.stat}) alike. A process joins by writing its pid into every file of
 * {@link Slice#procsFiles} before it starts anything (its threads and children follow it).
 */
final class CpuSlices implements AutoCloseable {
  private static final Path ROOT = Path.of("/sys/fs/cgroup");
  /**
   * The weight of every bench group against everything else on the machine: 100 times the default
   * (v1 {@code cpu.shares} 1024, v2 {@code cpu.weight} 100). A quota only caps a host; on a machine
   * where others build at the same time it is the weight that lets the host reach its cap.
   */
  static final long SHARES_V1 = 100 * 1024;
  static final long WEIGHT_V2 = 10_000;

  private final boolean v2;
  private final long periodMicros;
  /** Parent groups, one per hierarchy this machine uses (v1 may mount cpu and cpuacct apart). */
  private final List<Path> parents = new ArrayList<>();
  private final List<Slice> slices = new ArrayList<>();

  private CpuSlices(boolean v2, long periodMicros) {
    this.v2 = v2;
    this.periodMicros = periodMicros;
  }

  /**
   * Makes the parent group {@code name} (v2: with the cpu controller enabled below it). The
   * quota of every slice is counted over periods of {@code periodMicros}: a short period spreads a
   * small slice evenly (a tenth of 10 ms each 10 ms) instead of in bursts.
   */
  static CpuSlices create(String name, long periodMicros) throws IOException {
    if (periodMicros < 1_000 || periodMicros > 1_000_000) {
      throw new IllegalArgumentException("The CFS period must be between 1 ms and 1 s, not " + periodMicros + " µs");
    }
    boolean v2 = Files.exists(ROOT.resolve("cgroup.controllers"));
    CpuSlices s = new CpuSlices(v2, periodMicros);
    try {
      if (v2) {
        enableCpu(ROOT);
        Path parent = Files.createDirectories(ROOT.resolve(name));
        s.parents.add(parent);
        enableCpu(parent);
        Files.writeString(parent.resolve("cpu.weight"), String.valueOf(WEIGHT_V2));
      } else {
        Path cpu = ROOT.resolve("cpu");
        Path acct = ROOT.resolve("cpuacct");
        if (!Files.exists(cpu.resolve("cpu.cfs_quota_us")) || !Files.exists(acct.resolve("cpuacct.usage"))) {
          throw new IOException("cgroup v1 without the cpu and cpuacct controllers under " + ROOT);
        }
        s.parents.add(Files.createDirectories(cpu.resolve(name)));
        Files.writeString(s.parents.get(0).resolve("cpu.shares"), String.valueOf(SHARES_V1));
        if (!cpu.toRealPath().equals(acct.toRealPath())) {
          s.parents.add(Files.createDirectories(acct.resolve(name)));
        }
      }
    } catch (IOException | RuntimeException e) {
      s.close();
      throw e;
    }
    return s;
  }

  private static void enableCpu(Path group) throws IOException {
    Path control = group.resolve("cgroup.subtree_control");
    if (!firstLine(control).contains("cpu")) {
      Files.writeString(control, "+cpu");
    }
  }

  boolean v2() {
    return v2;
  }

  long periodMicros() {
    return periodMicros;
  }

  /** A new slice (no quota yet) named {@code host}. */
  Slice add(String host) throws IOException {
    List<Path> dirs = new ArrayList<>();
    for (Path p : parents) {
      dirs.add(Files.createDirectories(p.resolve(host)));
    }
    Slice s = new Slice(host, dirs);
    slices.add(s);
    s.unlimit();
    s.weigh();
    return s;
  }

  /**
   * How one slice's CPU was throttled so far: CFS periods seen, periods it hit its quota, time its
   * group spent stopped by the quota; and {@code waitNanos}, the time its threads spent runnable
   * but not running (the scheduler's run delay, summed over the threads alive at both readings),
   * which is how a host that never met its quota shows it was kept from the CPU.
   */
  record Throttling(long periods, long throttledPeriods, long throttledNanos, long waitNanos) {
    Throttling minus(Throttling earlier) {
      return new Throttling(periods - earlier.periods, throttledPeriods - earlier.throttledPeriods,
          throttledNanos - earlier.throttledNanos, Math.max(0, waitNanos - earlier.waitNanos));
    }
  }

  /** One host's cgroup. */
  final class Slice {
    final String host;
    private final List<Path> dirs;

    private Slice(String host, List<Path> dirs) {
      this.host = host;
      this.dirs = dirs;
    }

    /** Caps the host at {@code cpus} of one core's time (0.1: a tenth), however many threads it runs. */
    void limit(double cpus) throws IOException {
      long quota = Math.round(cpus * periodMicros);
      if (quota < 1_000) {
        throw new IllegalArgumentException(String.format(Locale.ROOT,
            "A slice of %.3f CPU over a %d µs period is a quota under the kernel's 1 ms minimum; lengthen --period-us",
            cpus, periodMicros));
      }
      write(quota);
    }

    /** No quota: the host may use every core (starting up, warming up, untimed set-up). */
    void unlimit() throws IOException {
      write(-1);
    }

    private void write(long quotaMicros) throws IOException {
      Path cpu = dirs.get(0);
      if (v2) {
        Files.writeString(cpu.resolve("cpu.max"), (quotaMicros < 0 ? "max" : String.valueOf(quotaMicros)) + " "
            + periodMicros);
        writeIfPresent(cpu.resolve("cpu.max.burst"), "0");
      } else {
        Files.writeString(cpu.resolve("cpu.cfs_period_us"), String.valueOf(periodMicros));
        Files.writeString(cpu.resolve("cpu.cfs_quota_us"), String.valueOf(quotaMicros));
        writeIfPresent(cpu.resolve("cpu.cfs_burst_us"), "0"); // no saved-up time beyond the quota
      }
    }

    /** Gives the host the bench's weight ({@link #SHARES_V1}, {@link #WEIGHT_V2}) among its siblings. */
    private void weigh() throws IOException {
      Path cpu = dirs.get(0);
      Files.writeString(cpu.resolve(v2 ? "cpu.weight" : "cpu.shares"), String.valueOf(v2 ? WEIGHT_V2 : SHARES_V1));
    }

    /**
     * The weight the kernel holds now for this host and, as a second value, for the bench's parent
     * group (the one that competes with the machine's other processes), read back.
     */
    long[] weights() throws IOException {
      Path cpu = dirs.get(0);
      String file = v2 ? "cpu.weight" : "cpu.shares";
      return new long[] {Long.parseLong(firstLine(cpu.resolve(file)).trim()),
          Long.parseLong(firstLine(cpu.getParent().resolve(file)).trim())};
    }

    /** The weight the bench writes (v1 shares or v2 weight). */
    long intendedWeight() {
      return v2 ? WEIGHT_V2 : SHARES_V1;
    }

    /** The quota the kernel holds now, in CPUs (read back, never remembered); -1 without one. */
    double limitCpus() throws IOException {
      Path cpu = dirs.get(0);
      long quota;
      long period;
      if (v2) {
        String[] parts = firstLine(cpu.resolve("cpu.max")).trim().split("\\s+");
        quota = parts[0].equals("max") ? -1 : Long.parseLong(parts[0]);
        period = Long.parseLong(parts[1]);
      } else {
        quota = Long.parseLong(firstLine(cpu.resolve("cpu.cfs_quota_us")).trim());
        period = Long.parseLong(firstLine(cpu.resolve("cpu.cfs_period_us")).trim());
      }
      return quota < 0 ? -1 : quota / (double) period;
    }

    /** CPU time the host's processes used, in nanoseconds (user + system, every thread and child). */
    long usageNanos() throws IOException {
      if (v2) {
        return stat(dirs.get(0), "usage_usec") * 1000;
      }
      return Long.parseLong(firstLine(dirs.get(dirs.size() - 1).resolve("cpuacct.usage")).trim());
    }

    Throttling throttling() throws IOException {
      Path cpu = dirs.get(0);
      return v2
          ? new Throttling(stat(cpu, "nr_periods"), stat(cpu, "nr_throttled"), stat(cpu, "throttled_usec") * 1000,
              waitNanos(cpu.resolve("cgroup.threads")))
          : new Throttling(stat(cpu, "nr_periods"), stat(cpu, "nr_throttled"), stat(cpu, "throttled_time"),
              waitNanos(cpu.resolve("tasks")));
    }

    /** The run delay of every thread listed in {@code threads} ({@code /proc/<tid>/schedstat}'s second field). */
    private long waitNanos(Path threads) throws IOException {
      long sum = 0;
      for (String tid : Files.readAllLines(threads)) {
        if (tid.isBlank()) {
          continue;
        }
        try {
          String[] f = firstLine(Path.of("/proc", tid.trim(), "schedstat")).trim().split("\\s+");
          if (f.length >= 2) {
            sum += Long.parseLong(f[1]);
          }
        } catch (IOException gone) {
          // the thread exited between the listing and the read: its delay leaves with it
        }
      }
      return sum;
    }

    /**
     * Lets this slice's processes run at real-time priority for up to {@code micros} of each second
     * (cgroup v1 with RT group scheduling gives a new group none; elsewhere nothing to do).
     */
    void allowRealTime(long micros) throws IOException {
      Path cpu = dirs.get(0);
      if (!v2 && Files.exists(cpu.resolve("cpu.rt_runtime_us"))) {
        Files.writeString(cpu.getParent().resolve("cpu.rt_runtime_us"), String.valueOf(micros));
        Files.writeString(cpu.resolve("cpu.rt_runtime_us"), String.valueOf(micros));
      }
    }

    /** The files a process writes its pid into to join this slice. */
    List<Path> procsFiles() {
      return dirs.stream().map(d -> d.resolve("cgroup.procs")).toList();
    }

    /** Whether process {@code pid} is in this slice (in every hierarchy of it). */
    boolean contains(long pid) throws IOException {
      for (Path procs : procsFiles()) {
        if (Files.readAllLines(procs).stream().noneMatch(l -> l.trim().equals(String.valueOf(pid)))) {
          return false;
        }
      }
      return true;
    }
  }

  private static long stat(Path dir, String key) throws IOException {
    for (String line : Files.readAllLines(dir.resolve("cpu.stat"), StandardCharsets.UTF_8)) {
      String[] kv = line.trim().split("\\s+");
      if (kv.length == 2 && kv[0].equals(key)) {
        return Long.parseLong(kv[1]);
      }
    }
    throw new IOException("No " + key + " in " + dir.resolve("cpu.stat"));
  }

  /**
   * The first line of a kernel file, read through a buffer: {@code Files.readString} asks a file
   * that reports size 0 for one byte first, and some kernel files (sysctls) answer a read that
   * continues past the start with nothing.
   */
  static String firstLine(Path file) throws IOException {
    try (java.io.BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line = r.readLine();
      return line == null ? "" : line;
    }
  }

  private static void writeIfPresent(Path file, String value) throws IOException {
    if (Files.exists(file)) {
      Files.writeString(file, value);
    }
  }

  /** Removes every group; their processes must have exited (a group with members cannot go). */
  @Override
  public void close() {
    for (Slice s : slices) {
      for (Path d : s.dirs) {
        removeDir(d);
      }
    }
    parents.forEach(CpuSlices::removeDir);
  }

  private static void removeDir(Path dir) {
    for (int attempt = 0; attempt < 50 && Files.exists(dir); attempt++) {
      try {
        Files.delete(dir); // rmdir: a cgroup's files go with it
      } catch (IOException busy) {
        try {
          Thread.sleep(100); // a process still leaving
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
    if (Files.exists(dir)) {
      System.err.println("Could not remove cgroup " + dir + " (processes still in it?)");
    }
  }
}
