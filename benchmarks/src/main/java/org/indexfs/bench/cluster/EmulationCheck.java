package org.indexfs.bench.cluster;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.indexfs.bench.report.Table;

/**
 * Proof that the emulation holds, before anything is measured; any failure stops the run: every
 * process sits in its host's cgroup; every configuration's quotas, once written, read back from
 * the kernel; every host's link carries the delay (netem, or netdelay running); every host reaches ZooKeeper and the
 * first client host reaches every host (ping). Then the round-trip times between the kinds of
 * hosts, as ping measures them, for the report.
 */
final class EmulationCheck {
  private final List<EmulatedHosts.Rtt> rtts = new ArrayList<>();
  private final List<String> facts = new ArrayList<>();

  private EmulationCheck() {}

  static EmulationCheck run(EmulatedHosts net, List<Config> configs, Map<String, List<HostProgram>> processes,
      ClusterRounds quotas) throws IOException, InterruptedException {
    EmulationCheck check = new EmulationCheck();
    int programs = 0;
    for (Map.Entry<String, List<HostProgram>> e : processes.entrySet()) {
      for (HostProgram p : e.getValue()) {
        if (p.isAlive() && !net.slice(e.getKey()).contains(p.pid())) {
          throw new IllegalStateException("Process " + p.name + " (pid " + p.pid() + ") is not in the cgroup of host "
              + e.getKey() + ": the emulation failed");
        }
        programs++;
      }
    }
    for (Config c : configs) {
      quotas.limit(c);
      for (String h : c.serverHosts()) {
        double q = net.slice(h).limitCpus();
        if (Math.abs(q - c.quotaPerHost()) > 0.005) {
          throw new IllegalStateException("The quota of " + h + " reads " + q + " CPUs after writing "
              + c.quotaPerHost() + ": the emulation failed");
        }
      }
      quotas.unlimit(c);
    }
    // Every host's weight and the bench group's: without them a host reaches its quota only when
    // nothing else on the machine wants the CPU.
    for (String h : net.sliceNames()) {
      long[] w = net.slice(h).weights();
      long want = net.slice(h).intendedWeight();
      if (w[0] != want || w[1] != want) {
        throw new IllegalStateException("The CPU weight of " + h + " reads " + w[0] + " (its parent group " + w[1]
            + ") after writing " + want + ": the emulation failed");
      }
    }
    if (net.delayMicros() > 0 && !net.delay().usesNetdelay()) {
      for (String h : net.names()) {
        String q = net.qdisc(h);
        if (!q.contains("netem") || !q.contains("delay")) {
          throw new IllegalStateException("Host " + h + " has no netem delay on its link: " + q);
        }
      }
    }
    net.delay().check();
    String first = Agents.hostName(0);
    for (String h : net.names()) {
      requireReachable(net.ping(h, ZooKeeperHost.HOST, 1));
      requireReachable(net.ping(first, h, 1));
    }
    check.facts.add(String.format(Locale.ROOT, "%d processes, each in its host's cgroup (%s); every configuration's"
        + " quotas written and read back; every host's CPU weight and the bench group's %s %d (100 × the default),"
        + " read back; %d hosts reach ZooKeeper and are reached from %s (ping)%s", programs,
        net.slices().v2() ? "cgroup v2" : "cgroup v1", net.slices().v2() ? "cpu.weight" : "cpu.shares",
        net.slices().v2() ? CpuSlices.WEIGHT_V2 : CpuSlices.SHARES_V1, net.names().size(), first,
        net.forwardRuleAdded() ? "; an iptables FORWARD rule lets the bridge's hosts talk whatever the chain's policy"
            : ""));
    check.facts.add(net.delay().describe() + (net.delayMicros() > 0 && !net.delay().usesNetdelay()
        ? "; tc on " + first + ": " + net.qdisc(first).replaceAll("\\s+", " ") : ""));
    Config biggest = configs.stream().filter(Config::indexfs).max(java.util.Comparator.comparingInt(Config::slices))
        .orElseThrow();
    List<String> slots = biggest.serverHosts();
    List<String[]> pairs = new ArrayList<>();
    pairs.add(new String[] {first, slots.get(0)});
    if (slots.size() > 1) {
      pairs.add(new String[] {slots.get(0), slots.get(1)});
    }
    pairs.add(new String[] {slots.get(0), ZooKeeperHost.HOST});
    configs.stream().filter(c -> !c.indexfs()).findFirst()
        .ifPresent(c -> pairs.add(new String[] {first, c.serverHosts().get(0)}));
    if (net.names().contains(Agents.hostName(1))) {
      pairs.add(new String[] {first, Agents.hostName(1)});
    }
    for (String[] p : pairs) {
      EmulatedHosts.Rtt r = net.ping(p[0], p[1], 50);
      requireReachable(r);
      check.rtts.add(r);
    }
    return check;
  }

  private static void requireReachable(EmulatedHosts.Rtt r) {
    if (r.received() == 0) {
      throw new IllegalStateException("Host " + r.to() + " is not reachable from " + r.from()
          + " (ping): the emulation failed");
    }
  }

  List<String> facts() {
    return facts;
  }

  List<EmulatedHosts.Rtt> rtts() {
    return rtts;
  }

  Table rttTable(long delayMicros) {
    List<List<String>> rows = new ArrayList<>();
    for (EmulatedHosts.Rtt r : rtts) {
      rows.add(List.of(r.from() + " → " + r.to(), r.received() + " / " + r.sent(),
          String.format(Locale.ROOT, "%.0f", r.minMicros()), String.format(Locale.ROOT, "%.0f", r.avgMicros()),
          String.format(Locale.ROOT, "%.0f", r.maxMicros()), String.valueOf(2 * delayMicros)));
    }
    return new Table("Round trips between hosts, measured with ping (µs; the delay is added each way)",
        List.of("hosts", "answered", "min", "avg", "max", "the delay's share (2 × delay)"), rows);
  }
}
