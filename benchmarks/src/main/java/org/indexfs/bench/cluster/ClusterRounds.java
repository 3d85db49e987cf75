package org.indexfs.bench.cluster;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.indexfs.bench.mdtest.MdtestWorkload.Phase;

/**
 * The run itself: warm-up rounds with the quotas lifted (every JVM compiles its hot paths), then
 * measured rounds in which every configuration runs every workload, the systems alternating. A
 * configuration's quotas are on from its first workload to its last (read back from the kernel
 * each time) and off in between, when the bench removes what the workloads left (untimed);
 * before each timed run the bench waits until the hosts are as quiet as they were idle.
 */
final class ClusterRounds {
  private final ClusterOptions o;
  private final EmulatedHosts net;
  private final Agents agents;
  private final Meter meter;
  private final Map<String, FileSystem> admins;
  private final Map<Integer, Path> generatedTraces;
  private final List<Measurement> measurements = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();
  private double idleBaseline;
  private int quietTimeouts;
  private final Progress progress;

  ClusterRounds(ClusterOptions o, EmulatedHosts net, Agents agents, Meter meter, Map<String, FileSystem> admins,
      Map<Integer, Path> generatedTraces, Progress progress) {
    this.o = o;
    this.net = net;
    this.agents = agents;
    this.meter = meter;
    this.admins = admins;
    this.generatedTraces = generatedTraces;
    this.progress = progress;
  }

  Meter meter() {
    return meter;
  }

  List<Measurement> measurements() {
    return measurements;
  }

  List<String> notes() {
    return notes;
  }

  int quietTimeouts() {
    return quietTimeouts;
  }

  double idleBaseline() {
    return idleBaseline;
  }

  /**
   * Warm-up: each server process runs every workload at the largest size it will see, unthrottled,
   * until its JIT has settled — a round in which its JVMs compiled under {@value #SETTLED} of the
   * methods they had compiled — or after {@code --warm-up-rounds} rounds. Returns the rounds each
   * system took.
   */
  Map<String, Integer> warmUp(List<Config> configs, Map<String, HostProgram> servers) throws Exception {
    Map<String, Config> largest = new LinkedHashMap<>();
    for (Config c : configs) {
      largest.merge(c.target(), c, (a, b) -> b.slices() * b.slice() > a.slices() * a.slice() ? b : a);
    }
    Map<String, Integer> took = new LinkedHashMap<>();
    for (Config c : largest.values()) {
      for (int w = 1; w <= o.warmUpRounds(); w++) {
        long before = compiled(c, servers);
        progress.step("warm-up " + w + ": " + c.label());
        runConfig(-w, c, false);
        long after = compiled(c, servers);
        took.put(c.target(), w);
        if (after - before < SETTLED * after) {
          break;
        }
      }
    }
    idleBaseline = idleRate(3_000);
    meter.measureZooKeeperAtRest(3_000);
    return took;
  }

  /** A warm-up round that compiled fewer methods than this share of the total ends the warm-up. */
  static final double SETTLED = 0.02;

  private static long compiled(Config c, Map<String, HostProgram> servers) throws IOException, InterruptedException {
    long n = 0;
    for (String h : c.serverHosts()) {
      n += JitCounts.read(servers.get(h).pid()).compiled();
    }
    return n;
  }

  void measure(List<Config> configs) throws Exception {
    for (int r = 0; r < o.rounds(); r++) {
      long t0 = System.nanoTime();
      for (Config c : configs) {
        progress.step("round " + (r + 1) + "/" + o.rounds() + ": " + c.label());
        runConfig(r, c, true);
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      progress.step(String.format(Locale.ROOT, "round %d took %.0f s; the remaining %d round(s): about %.0f min",
          r + 1, seconds, o.rounds() - r - 1, seconds * (o.rounds() - r - 1) / 60));
    }
  }

  /**
   * The private-directory mdtest again on {@code c} with twice the client threads (and half the
   * files each): if the clients were the bottleneck, this would be faster.
   */
  void clientCheck(Config c) throws Exception {
    progress.step("client check: " + c.label() + " with twice the client threads");
    limit(c);
    try {
      mdtest(-1, c, false, true, 2, 1);
    } finally {
      unlimit(c);
    }
  }

  private void runConfig(int round, Config c, boolean record) throws Exception {
    if (record) {
      limit(c);
    }
    try {
      for (boolean shared : o.layouts()) {
        mdtest(round, c, shared, record, 1, record ? 1 : o.warmUpScale());
      }
      if (o.traceCallsPerSlice() > 0) {
        trace(round, c, generatedTraces.get(c.slices()), "mixed trace (LinkedIn mix)", record);
      }
      for (Path t : o.traces()) {
        trace(round, c, t, "audit log " + t.getFileName(), record);
      }
    } finally {
      if (record) {
        unlimit(c);
      }
    }
  }

  private static String dir(int round, Config c) {
    String r = round < 0 ? "w" + (-round) : "r" + round;
    return "/bench/" + r + "/" + c.target() + "-" + c.slices() + "x" + String.format(Locale.ROOT, "%.3f", c.slice());
  }

  /**
   * mdtest in one layout; {@code threadFactor} 2 is the client check (round -1 then names it);
   * {@code scale} multiplies the files (the warm-up's).
   */
  private void mdtest(int round, Config c, boolean shared, boolean record, int threadFactor, int scale)
      throws Exception {
    String layout = shared ? "shared dir" : "private dirs";
    String root = (threadFactor == 1 ? dir(round, c) : "/bench/client-check/" + c.target()) + "/"
        + layout.replace(' ', '-');
    int threads = o.threadsPerClient(c.slices()) * threadFactor;
    int files = Math.max(1, o.filesPerThread(c.slices()) * scale / threadFactor);
    agents.all(k -> String.format(Locale.ROOT, "mdtest-prepare t=%s root=%s threads=%d files=%d shared=%s depth=%d"
        + " client=%d clients=%d", c.target(), root, threads, files, shared, o.depth(), k, agents.count()));
    for (Phase p : Phase.values()) {
      boolean wanted = o.phases().contains(p);
      if (!wanted && p != Phase.CREATE) {
        continue; // create always runs: the other phases need its files
      }
      String phase = p.name().toLowerCase(Locale.ROOT) + " (" + layout + ")"
          + (threadFactor == 1 ? "" : " ×" + threadFactor + " client threads");
      String command = "mdtest-phase t=" + c.target() + " root=" + root + " phase=" + p;
      if (record && wanted) {
        timed(round, c, phase, command);
      } else {
        agents.all(command);
      }
    }
    unlimit(c);
    admins.get(c.target()).delete(new org.apache.hadoop.fs.Path(root), true);
    if (record) {
      limit(c);
    }
  }

  private void trace(int round, Config c, Path trace, String name, boolean record) throws Exception {
    String base = dir(round, c) + "/" + name.replaceAll("[^A-Za-z0-9.-]+", "-");
    unlimit(c); // the pre-create is not timed
    agents.all(k -> String.format(Locale.ROOT, "trace-prepare t=%s trace=%s prefix=%s/c%d threads=%d zone=%s",
        c.target(), trace, base, k, o.threadsPerClient(c.slices()),
        generatedTraces.containsValue(trace) ? "UTC" : java.time.ZoneId.systemDefault().getId()));
    if (record) {
      limit(c);
      timed(round, c, name, "trace-run t=" + c.target());
    } else {
      agents.all("trace-run t=" + c.target());
    }
    unlimit(c);
    admins.get(c.target()).delete(new org.apache.hadoop.fs.Path(base), true);
    if (record) {
      limit(c);
    }
  }

  private void timed(int round, Config c, String phase, String command) throws Exception {
    awaitQuiet();
    checkQuota(c);
    net.delay().check();
    Meter.Snapshot before = meter.take(c);
    List<Agents.Reply> replies = agents.all(command);
    Meter.Snapshot after = meter.take(c);
    Measurement m = Measurement.of(round, c, phase, replies, before, after);
    measurements.add(m);
    progress.done(m);
    List<String> over = m.overQuota(o.periodMicros());
    if (!over.isEmpty()) {
      notes.add("Over quota: " + over + " in " + c.label() + ", " + phase + ", round " + round);
    }
    if (!m.starved().isEmpty()) {
      String line = "Starved (kept from the slice by the machine's other load; the run is not valid): " + m.starved()
          + " in " + c.label() + ", " + phase + ", round " + round;
      // Reported (validity), never a failure: the flag is conservative on a loaded machine, and CI's
      // short round must fail only when the emulation itself fails.
      System.out.println("  " + line);
    }
  }

  /** Puts the configuration's slices on its server hosts. */
  void limit(Config c) throws IOException {
    for (String h : c.serverHosts()) {
      net.slice(h).limit(c.quotaPerHost());
    }
  }

  void unlimit(Config c) throws IOException {
    for (String h : c.serverHosts()) {
      net.slice(h).unlimit();
    }
  }

  /** The kernel must hold the quota the configuration asks for, on every one of its hosts, before a timed run. */
  private void checkQuota(Config c) throws IOException {
    for (String h : c.serverHosts()) {
      double q = net.slice(h).limitCpus();
      if (Math.abs(q - c.quotaPerHost()) > 0.005) {
        throw new IllegalStateException("The quota of " + h + " reads " + q + " CPUs, not " + c.quotaPerHost()
            + ": the emulation failed");
      }
    }
  }

  /** The CPU rate (cores) of every host but the clients, over {@code ms}. */
  private double idleRate(long ms) throws IOException, InterruptedException {
    Map<String, Long> a = meter.cpu();
    long t0 = System.nanoTime();
    Thread.sleep(ms);
    Map<String, Long> b = meter.cpu();
    long d = 0;
    for (Map.Entry<String, Long> e : b.entrySet()) {
      if (!Meter.isClient(e.getKey())) {
        d += e.getValue() - a.get(e.getKey());
      }
    }
    return d / (double) (System.nanoTime() - t0);
  }

  /**
   * Waits until the servers and ZooKeeper use no more CPU than when idle (plus 5 % of a core):
   * a cleanup's background work (IndexFS reclaims deleted subtrees, RocksDB compacts) must not run
   * into the next timed run. Gives up after 30 s and counts it.
   */
  private void awaitQuiet() throws IOException, InterruptedException {
    long deadline = System.currentTimeMillis() + 30_000;
    int quiet = 0;
    while (quiet < 2) {
      if (System.currentTimeMillis() > deadline) {
        quietTimeouts++;
        return;
      }
      quiet = idleRate(250) <= idleBaseline + 0.05 ? quiet + 1 : 0;
    }
  }

  /** Progress lines on stderr: what runs now, and each timed run's result. */
  static final class Progress {
    private final long start = System.nanoTime();

    void step(String what) {
      System.err.printf(Locale.ROOT, "[%5.0f s] %s%n", (System.nanoTime() - start) / 1e9, what);
    }

    void done(Measurement m) {
      System.err.printf(Locale.ROOT, "[%5.0f s]   %-40s %,10.0f ops/s  slots at %3.0f %% of slice (max %3.0f %%)%n",
          (System.nanoTime() - start) / 1e9, m.phase(), m.ops() / Math.max(1e-9, m.seconds()),
          100 * m.meanUtilization(), 100 * m.maxUtilization());
    }
  }
}
