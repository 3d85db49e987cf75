package org.indexfs.bench.cluster;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.HdrHistogram.Histogram;

/**
 * The measured rounds of one configuration and phase together: throughput is all operations over
 * all the clients' seconds, latencies one merged histogram, CPU summed over the rounds' windows.
 */
final class Summary {
  final Config config;
  final String phase;
  long ops;
  double seconds;
  long errors;
  final Histogram micros = new Histogram(3_600_000_000L, 3);
  double window;
  final Map<String, Long> serverCpu = new LinkedHashMap<>();
  long clientCpu;
  long zkCpu;
  long otherCpu;
  long periods;
  long throttledPeriods;
  double idleWeighted;
  long rpcs;
  long peerCalls;
  long redirects;
  long splits;
  long entriesMoved;
  long leaseRenewals;
  long zkRequests;
  final Map<String, Long> callsByKind = new java.util.TreeMap<>();
  final List<Double> perRound = new ArrayList<>();
  double maxRoundUtilization;

  private Summary(Config config, String phase) {
    this.config = config;
    this.phase = phase;
  }

  /** Every configuration and phase of {@code ms}, in the order first measured. */
  static Map<Key, Summary> of(List<Measurement> ms) {
    Map<Key, Summary> out = new LinkedHashMap<>();
    for (Measurement m : ms) {
      out.computeIfAbsent(new Key(m.config(), m.phase()), k -> new Summary(k.config(), k.phase())).add(m);
    }
    return out;
  }

  record Key(Config config, String phase) {}

  /** Phases in the order first measured. */
  static List<String> phases(List<Measurement> ms) {
    Set<String> p = new LinkedHashSet<>();
    ms.forEach(m -> p.add(m.phase()));
    return new ArrayList<>(p);
  }

  private void add(Measurement m) {
    ops += m.ops();
    seconds += m.seconds();
    errors += m.errors();
    micros.add(m.micros());
    window += m.window();
    m.serverCpu().forEach((h, v) -> serverCpu.merge(h, v, Long::sum));
    clientCpu += m.clientCpu();
    zkCpu += m.zkCpu();
    otherCpu += m.otherCpu();
    periods += m.periods();
    throttledPeriods += m.throttledPeriods();
    idleWeighted += m.machineIdle() * m.window();
    rpcs = rpcs < 0 || m.rpcs() < 0 ? -1 : rpcs + m.rpcs();
    peerCalls += m.peerCalls();
    redirects += m.redirects();
    splits += m.splits();
    entriesMoved += m.entriesMoved();
    leaseRenewals += m.leaseRenewals();
    zkRequests += m.zkRequests();
    m.callsByKind().forEach((k, v) -> callsByKind.merge(k, v, Long::sum));
    perRound.add(m.seconds() > 0 ? m.ops() / m.seconds() : 0);
    maxRoundUtilization = Math.max(maxRoundUtilization, m.maxUtilization());
  }

  double opsPerSecond() {
    return seconds > 0 ? ops / seconds : 0;
  }

  long serverCpuNanos() {
    return serverCpu.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Server CPU per operation, all slots together (µs). */
  double serverMicrosPerOp() {
    return ops == 0 ? 0 : serverCpuNanos() / 1e3 / ops;
  }

  double clientMicrosPerOp() {
    return ops == 0 ? 0 : clientCpu / 1e3 / ops;
  }

  /** The servers' CPU over what their slices allowed (mean over hosts). */
  double meanUtilization() {
    return serverCpuNanos() / (config.quotaPerHost() * serverCpu.size() * window * 1e9);
  }

  double maxUtilization() {
    return serverCpu.values().stream().mapToLong(Long::longValue).max().orElse(0)
        / (config.quotaPerHost() * window * 1e9);
  }

  double busiestShare() {
    long total = serverCpuNanos();
    return total == 0 ? 0 : serverCpu.values().stream().mapToLong(Long::longValue).max().orElse(0) / (double) total;
  }

  double clientCores() {
    return window > 0 ? clientCpu / (window * 1e9) : 0;
  }

  double machineIdle() {
    return window > 0 ? idleWeighted / window : 0;
  }

  double throttledShare() {
    return periods == 0 ? 0 : throttledPeriods / (double) periods;
  }

  double perOp(long count) {
    return ops == 0 ? 0 : count / (double) ops;
  }

  /** Calls that crossed slots (a server calling another, a redirect) over the clients' RPCs. */
  double crossSlotShare() {
    return rpcs <= 0 ? 0 : (peerCalls + redirects) / (double) rpcs;
  }

  /** The clients' RPCs per operation, or "-" where they were not counted. */
  String rpcsPerOp() {
    return rpcs < 0 ? "-" : String.format(java.util.Locale.ROOT, "%.2f", perOp(rpcs));
  }
}
