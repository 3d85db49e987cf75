package org.indexfs.bench.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the bench reads off the machine before and after a timed run: every host's CPU time (its
 * cgroup's accounting), the throttling of the servers' slices, the machine's idle time
 * ({@code /proc/stat}), IndexFS slots' own counters (/prom) and ZooKeeper's request count.
 */
final class Meter {
  private final EmulatedHosts net;
  private final ZooKeeperHost zk;
  private final Map<Integer, SlotCluster> clusters;

  Meter(EmulatedHosts net, ZooKeeperHost zk, Map<Integer, SlotCluster> clusters) {
    this.net = net;
    this.zk = zk;
    this.clusters = clusters;
  }

  /** One reading. {@code counters} is null for a NameNode. */
  record Snapshot(long nanos, Map<String, Long> cpu, Map<String, CpuSlices.Throttling> throttling, long idleTicks,
      long totalTicks, SlotCluster.Counters counters, long zkRequests, double zkBackgroundPerSecond) {}

  /** ZooKeeper's requests per second at rest (every session's pings), not counted against a workload. */
  private volatile double zkBackground;

  /** Measures ZooKeeper's requests at rest over {@code ms}. */
  void measureZooKeeperAtRest(long ms) throws IOException, InterruptedException {
    long r0 = zk.requests();
    long t0 = System.nanoTime();
    Thread.sleep(ms);
    zkBackground = (zk.requests() - r0) / ((System.nanoTime() - t0) / 1e9);
  }

  double zooKeeperAtRest() {
    return zkBackground;
  }

  Snapshot take(Config c) throws IOException, InterruptedException {
    SlotCluster.Counters counters = c.indexfs() ? clusters.get(c.slices()).counters() : null;
    long zkRequests = zk.requests();
    Map<String, CpuSlices.Throttling> throttling = new LinkedHashMap<>();
    for (String h : c.serverHosts()) {
      throttling.put(h, net.slice(h).throttling());
    }
    for (String h : clientHosts(net)) {
      throttling.put(h, net.slice(h).throttling());
    }
    throttling.put(ZooKeeperHost.HOST, net.slice(ZooKeeperHost.HOST).throttling());
    long[] ticks = procStat();
    return new Snapshot(System.nanoTime(), cpu(), throttling, ticks[0], ticks[1], counters, zkRequests, zkBackground);
  }

  /** CPU nanoseconds of every host so far. */
  Map<String, Long> cpu() throws IOException {
    Map<String, Long> cpu = new LinkedHashMap<>();
    for (String h : net.sliceNames()) {
      cpu.put(h, net.slice(h).usageNanos());
    }
    return cpu;
  }

  /** The machine's idle and total CPU time so far, in clock ticks (the first line of /proc/stat). */
  static long[] procStat() throws IOException {
    String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
    long total = 0;
    for (int i = 1; i < f.length && i <= 8; i++) { // user nice system idle iowait irq softirq steal
      total += Long.parseLong(f[i]);
    }
    return new long[] {Long.parseLong(f[4]) + Long.parseLong(f[5]), total};
  }

  /** The hosts of nobody under test: ZooKeeper, the clients, and every other system's servers. */
  static boolean isClient(String host) {
    return host.startsWith(Agents.HOST_PREFIX);
  }

  static List<String> clientHosts(EmulatedHosts net) {
    return net.names().stream().filter(Meter::isClient).toList();
  }
}
