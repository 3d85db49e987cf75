package org.indexfs.bench.cluster;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * One timed run of one phase on one configuration in one round: what the clients saw (operations,
 * seconds, latencies) and what the machine shows for it (each host's CPU, the servers'
 * throttling, the machine's idle time, the system's RPCs and cross-slot calls, ZooKeeper's
 * requests). {@code seconds} is the clients' time (the slowest client host's); {@code window} the
 * bench's, from the reading before to the one after, over which CPU is counted.
 */
record Measurement(int round, Config config, String phase, long ops, double seconds, long errors,
    Histogram micros, double window, Map<String, Long> serverCpu, long clientCpu, long zkCpu, long otherCpu,
    long periods, long throttledPeriods, double machineIdle, long rpcs, long peerCalls, long redirects,
    long splits, long entriesMoved, long leaseRenewals, long zkRequests, Map<String, Long> callsByKind,
    List<HostUse> hosts) {

  static Measurement of(int round, Config c, String phase, List<Agents.Reply> replies, Meter.Snapshot before,
      Meter.Snapshot after) {
    long ops = 0;
    long errors = 0;
    double seconds = 0;
    Histogram h = new Histogram(3_600_000_000L, 3);
    for (Agents.Reply r : replies) {
      ops += r.ops();
      errors += r.errors();
      seconds = Math.max(seconds, r.seconds());
      h.add(r.micros());
    }
    List<String> servers = c.serverHosts();
    Map<String, Long> serverCpu = new LinkedHashMap<>();
    long client = 0;
    long zk = 0;
    long other = 0;
    for (Map.Entry<String, Long> e : after.cpu().entrySet()) {
      long d = e.getValue() - before.cpu().get(e.getKey());
      if (servers.contains(e.getKey())) {
        serverCpu.put(e.getKey(), d);
      } else if (Meter.isClient(e.getKey())) {
        client += d;
      } else if (e.getKey().equals(ZooKeeperHost.HOST)) {
        zk += d;
      } else {
        other += d;
      }
    }
    long periods = 0;
    long throttled = 0;
    for (String s : servers) {
      CpuSlices.Throttling t = after.throttling().get(s).minus(before.throttling().get(s));
      periods += t.periods();
      throttled += t.throttledPeriods();
    }
    double window = (after.nanos() - before.nanos()) / 1e9;
    List<HostUse> hosts = new java.util.ArrayList<>();
    for (Map.Entry<String, CpuSlices.Throttling> e : after.throttling().entrySet()) {
      String host = e.getKey();
      hosts.add(new HostUse(host, servers.contains(host) ? c.quotaPerHost() : -1,
          after.cpu().get(host) - before.cpu().get(host), window, e.getValue().minus(before.throttling().get(host))));
    }
    long total = after.totalTicks() - before.totalTicks();
    double idle = total > 0 ? (after.idleTicks() - before.idleTicks()) / (double) total : 0;
    long rpcs;
    long peer = 0;
    long redirects = 0;
    long splits = 0;
    long moved = 0;
    long renewals = 0;
    Map<String, Long> byKind = new LinkedHashMap<>();
    if (c.indexfs()) {
      SlotCluster.Counters d = after.counters().minus(before.counters());
      peer = d.peerCalls();
      redirects = d.redirects();
      rpcs = d.served() - d.peerCalls() + d.redirects(); // the clients' calls, redirected ones included
      splits = d.splits();
      moved = d.entriesMoved();
      renewals = d.leaseRenewals();
      byKind.putAll(d.byOp());
      byKind.put("(redirected)", d.redirects());
    } else {
      rpcs = 0; // counted where they are sent: the agents' Hadoop IPC clients
      for (Agents.Reply r : replies) {
        rpcs = r.hadoopRpcs() < 0 || rpcs < 0 ? -1 : rpcs + r.hadoopRpcs();
      }
    }
    return new Measurement(round, c, phase, ops, seconds, errors, h, (after.nanos() - before.nanos()) / 1e9,
        serverCpu, client, zk, other, periods, throttled, idle, rpcs, peer, redirects, splits, moved, renewals,
        Math.max(0, after.zkRequests() - before.zkRequests()
            - Math.round(after.zkBackgroundPerSecond() * (after.nanos() - before.nanos()) / 1e9)), byKind, hosts);
  }

  /** The server hosts kept from their slices in this run ({@link HostUse#starved}): the run is not valid. */
  List<String> starved() {
    return hosts.stream().filter(HostUse::starved).map(HostUse::host).toList();
  }

  long serverCpuNanos() {
    return serverCpu.values().stream().mapToLong(Long::longValue).sum();
  }

  /** The busiest server host's CPU over what its slice allowed in the window (1.0: it used all of it). */
  double maxUtilization() {
    return serverCpu.values().stream().mapToLong(Long::longValue).max().orElse(0)
        / (config.quotaPerHost() * window * 1e9);
  }

  /** The servers' CPU over what their slices allowed together. */
  double meanUtilization() {
    return serverCpuNanos() / (config.quotaPerHost() * serverCpu.size() * window * 1e9);
  }

  /** The busiest server host's share of the servers' CPU (1/N: even over N slots). */
  double busiestShare() {
    long total = serverCpuNanos();
    return total == 0 ? 0 : serverCpu.values().stream().mapToLong(Long::longValue).max().orElse(0) / (double) total;
  }

  /**
   * Hosts that used more than their quota could give over the window: the quota's worth of each
   * CFS period the window touched (a window of W spans at most W / period + 1 of them), plus what
   * the kernel lets run before it checks: one bandwidth slice per core.
   */
  List<String> overQuota(long periodMicros) {
    double allowed = config.quotaPerHost() * (window * 1e9 + periodMicros * 1e3)
        + Runtime.getRuntime().availableProcessors() * bandwidthSliceMicros() * 1e3;
    return serverCpu.entrySet().stream().filter(e -> e.getValue() > allowed).map(Map.Entry::getKey).toList();
  }

  /** The kernel's {@code sched_cfs_bandwidth_slice_us} (5 ms where it cannot be read). */
  static long bandwidthSliceMicros() {
    try {
      return Long.parseLong(CpuSlices.firstLine(
          java.nio.file.Path.of("/proc/sys/kernel/sched_cfs_bandwidth_slice_us")).trim());
    } catch (java.io.IOException | RuntimeException e) {
      return 5_000;
    }
  }
}
