package org.indexfs.bench.cluster;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.indexfs.bench.report.Table;

/**
 * Whether each host got its slice, from the timed runs' {@link HostUse}: per configuration and
 * host, the CPU used against the slice, the periods and time the quota stopped it, and the time
 * its threads waited for a CPU; and the runs that were not valid because a server host was kept
 * from its slice by the rest of the machine (others building beside the bench).
 */
final class HostTables {
  private HostTables() {}

  /** One host's runs of one configuration, summed. */
  private static final class Sum {
    double quota;
    long cpu;
    double window;
    long periods;
    long throttled;
    long throttledNanos;
    long waitNanos;
    int starvedRuns;
    int runs;
  }

  static Table hosts(List<Config> configs, List<Measurement> ms) {
    List<List<String>> rows = new ArrayList<>();
    for (Config c : configs) {
      Map<String, Sum> sums = new LinkedHashMap<>();
      for (Measurement m : ms) {
        if (m.round() < 0 || !m.config().equals(c)) {
          continue;
        }
        for (HostUse u : m.hosts()) {
          Sum s = sums.computeIfAbsent(u.host(), h -> new Sum());
          s.quota = u.quota();
          s.cpu += u.cpuNanos();
          s.window += u.window();
          s.periods += u.t().periods();
          s.throttled += u.t().throttledPeriods();
          s.throttledNanos += u.t().throttledNanos();
          s.waitNanos += u.t().waitNanos();
          s.starvedRuns += u.starved() ? 1 : 0;
          s.runs++;
        }
      }
      for (Map.Entry<String, Sum> e : sums.entrySet()) {
        Sum s = e.getValue();
        boolean sliced = s.quota > 0;
        String verdict;
        if (!sliced) {
          verdict = "no quota";
        } else if (s.starvedRuns > 0) {
          verdict = "STARVED in " + s.starvedRuns + " of " + s.runs + " runs";
        } else if (s.periods > 0 && s.throttled >= HostUse.RARELY * s.periods) {
          verdict = "had its slice (met its quota)";
        } else {
          verdict = "under its slice, not kept from the CPU (no more work came)";
        }
        rows.add(List.of(c.label(), e.getKey(), sliced ? String.format(Locale.ROOT, "%.3f", s.quota) : "-",
            String.format(Locale.ROOT, "%.3f", s.cpu / (s.window * 1e9)),
            sliced ? String.format(Locale.ROOT, "%.0f %%", 100 * s.cpu / (s.quota * s.window * 1e9)) : "-",
            sliced ? s.throttled + " / " + s.periods : "-",
            sliced ? String.format(Locale.ROOT, "%.1f", s.throttledNanos / 1e9) : "-",
            String.format(Locale.ROOT, "%.0f %%", 100 * s.waitNanos / (s.window * 1e9)), verdict));
      }
    }
    return new Table(String.format(Locale.ROOT, "Did each host get its slice? Per configuration and host over its timed"
            + " runs: CPU used (cores) and over the slice; cpu.stat's nr_throttled over nr_periods and throttled_time;"
            + " time its threads waited for a CPU (run delay, summed over threads, over the runs' time). Every bench"
            + " cgroup weighs %d cpu.shares (v2: cpu.weight %d), 100 × the default, so a host reaches its quota while"
            + " others build. Starved: under %.0f %% of its slice, throttled in under %.0f %% of the periods, and"
            + " waiting for a CPU at least as long as the slice time it left unused",
            CpuSlices.SHARES_V1, CpuSlices.WEIGHT_V2, 100 * HostUse.UNDER, 100 * HostUse.RARELY),
        List.of("configuration", "host", "slice (CPUs)", "CPU used (cores)", "slice use", "periods throttled",
            "throttled time (s)", "waited for a CPU", "verdict"), rows);
  }

  /** The timed runs in which a server host was starved; empty when every run is valid. */
  static List<String> invalidRuns(List<Measurement> ms) {
    List<String> out = new ArrayList<>();
    for (Measurement m : ms) {
      if (!m.starved().isEmpty()) {
        out.add(m.config().label() + " " + m.phase() + " round " + m.round() + " (" + String.join(", ", m.starved())
            + ")");
      }
    }
    return out;
  }

  static String validity(List<Measurement> ms) {
    List<String> bad = invalidRuns(ms);
    return bad.isEmpty()
        ? "valid: no server host was kept from its slice in any of the " + ms.size() + " timed runs"
        : "NOT VALID in " + bad.size() + " of " + ms.size() + " timed runs (a server host was kept from its slice by"
            + " the rest of the machine; their figures measure the machine's load): " + String.join("; ", bad);
  }

  /**
   * The clients' headroom: the most their threads waited for a CPU in any timed run. Clients that
   * waited little were never short of CPU (the client check and the clients table say the rest).
   */
  static String clientHeadroom(List<Measurement> ms) {
    double worst = 0;
    String where = "";
    for (Measurement m : ms) {
      if (m.round() < 0) {
        continue;
      }
      double wait = 0;
      for (HostUse u : m.hosts()) {
        if (Meter.isClient(u.host())) {
          wait += u.waitShare();
        }
      }
      if (wait > worst) {
        worst = wait;
        where = m.config().label() + " " + m.phase() + " round " + m.round();
      }
    }
    return String.format(Locale.ROOT, "the client hosts' threads waited for a CPU at most %.0f %% of a run's time"
        + " (summed over their threads%s)", 100 * worst, where.isEmpty() ? "" : ", in " + where);
  }
}
