package org.indexfs.bench.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.indexfs.bench.report.Table;

/**
 * The model checks itself. A slot is a slice of CPU: on one slot a phase runs at K operations per
 * second of slice (the measured rate over the slot's measured use of its slice). On N slots the
 * busiest slot carries a share m(N) of the work ({@link PlacementLoads}: P2C + GIGA+ on the run's
 * own paths, with the calls slots make to each other on the operations' behalf, each weighing one
 * client RPC of the phase), so the cluster runs at K / m(N) — N × K when the load is even and no
 * call crosses slots. Printed beside the measurement at every slot count of the run, with the
 * terms the model leaves out measured, so a miss names its cause.
 *
 * <p>Beyond the run (32, 64, 128 slots) three more terms, each measured at the run's largest slot
 * count and carried forward: calls that cross slots beyond what the placement model counts
 * (redirects, splits' moves; each costs the receiver about a client RPC), lease renewals (each
 * client renews with every slot holding its leases: their share grows with N), and ZooKeeper
 * (requests per operation beyond its sessions' pings, against an assumed capacity). The smallest
 * factor is the one that limits first.
 */
final class ScaleModel {
  private ScaleModel() {}

  /** What one slot of the group's slice measured for a phase. */
  record Base(double opsPerSecond, double utilization, double rpcsPerOp) {
    static Base of(Summary one) {
      double rpcs = one.rpcs > 0 ? one.perOp(one.rpcs) : 0;
      return new Base(one.opsPerSecond(), one.meanUtilization(), rpcs);
    }

    /** Operations per second a whole slice gives this phase. */
    double capacity() {
      return utilization > 0 ? opsPerSecond / Math.min(1.0, utilization) : opsPerSecond;
    }

    /** A call between slots, in this phase's operations: one client RPC's worth. */
    double peerWeight() {
      return rpcsPerOp > 0 ? Math.min(1.0, 1 / rpcsPerOp) : 1.0;
    }
  }

  static Table check(List<String> phases, Map<Summary.Key, Summary> s, List<Integer> slots, double slice,
      Map<Integer, Map<String, PlacementLoads.Load>> loads) {
    List<List<String>> rows = new ArrayList<>();
    for (String phase : phases) {
      Summary one = s.get(new Summary.Key(Config.indexfs(1, slice), phase));
      if (one == null) {
        continue;
      }
      Base base = Base.of(one);
      for (int n : slots) {
        Summary m = s.get(new Summary.Key(Config.indexfs(n, slice), phase));
        PlacementLoads.Load load = loads.getOrDefault(n, Map.of()).get(phase);
        if (m == null || load == null || n == 1) {
          continue;
        }
        double share = load.busiestShare(base.peerWeight());
        double predicted = base.capacity() / share;
        double error = m.opsPerSecond() / predicted - 1;
        rows.add(List.of(phase, String.valueOf(n), ClusterReport.num(m.opsPerSecond()),
            ClusterReport.num(predicted), String.format(Locale.ROOT, "%+.0f %%", 100 * error),
            ClusterReport.two(share), ClusterReport.two(m.busiestShare()),
            String.format(Locale.ROOT, "%.2f / %.2f", modelPeerPerOp(load), m.perOp(m.peerCalls)),
            Math.abs(error) <= 0.25 ? "within ±25 %" : misses(one, m, share)));
      }
    }
    return new Table(String.format(Locale.ROOT, "The model against the measurement (slice %s): predicted = one slot's"
            + " ops/s per slice ÷ the busiest slot's share of the work (P2C + GIGA+ on the run's paths, calls"
            + " between slots weighing a client RPC each)", ClusterReport.cpus(slice)),
        List.of("phase", "slots", "measured ops/s", "predicted ops/s", "error", "busiest share (model)",
            "busiest share (measured CPU)", "calls between slots per op (model / measured)",
            "what the model misses"), rows);
  }

  private static double modelPeerPerOp(PlacementLoads.Load load) {
    long calls = 0;
    for (long v : load.calls()) {
      calls += v;
    }
    return calls == 0 ? 0 : load.peerCallsTotal() / (double) calls;
  }

  /** The measured terms that explain a miss. */
  static String misses(Summary one, Summary n, double modelShare) {
    List<String> out = new ArrayList<>();
    double cpuGrowth = one.serverMicrosPerOp() > 0 ? n.serverMicrosPerOp() / one.serverMicrosPerOp() - 1 : 0;
    if (n.meanUtilization() < 0.85) {
      out.add(String.format(Locale.ROOT, "slots used %.0f %% of their slices (machine idle %.0f %%, clients %.2f"
          + " cores): the load did not saturate them", 100 * n.meanUtilization(), 100 * n.machineIdle(), n.clientCores()));
    }
    if (Math.abs(cpuGrowth) > 0.10) {
      out.add(String.format(Locale.ROOT, "server CPU per op %+.0f %% over one slot (calls between slots %.3f/op,"
          + " redirects %.3f/op, %d splits moving %,d entries)", 100 * cpuGrowth, n.perOp(n.peerCalls),
          n.perOp(n.redirects), n.splits, n.entriesMoved));
    }
    if (n.busiestShare() > modelShare * 1.15) {
      out.add(String.format(Locale.ROOT, "the busiest slot carried %.2f of the CPU, the model %.2f of the work",
          n.busiestShare(), modelShare));
    }
    return out.isEmpty() ? "none of its terms: per-op costs, balance and saturation as modelled" : String.join("; ", out);
  }

  /** Predictions past the run's largest slot count, term by term. */
  static Table beyond(List<String> phases, Map<Summary.Key, Summary> s, List<Integer> slots, double slice,
      Map<Integer, Map<String, PlacementLoads.Load>> measuredLoads, Map<Integer, Map<String, PlacementLoads.Load>> loads,
      List<Integer> predict, double zkCapacity) {
    List<List<String>> rows = new ArrayList<>();
    int largest = slots.get(slots.size() - 1);
    for (String phase : phases) {
      Summary one = s.get(new Summary.Key(Config.indexfs(1, slice), phase));
      Summary big = s.get(new Summary.Key(Config.indexfs(largest, slice), phase));
      PlacementLoads.Load bigLoad = measuredLoads.getOrDefault(largest, Map.of()).get(phase);
      if (one == null || big == null || bigLoad == null) {
        continue;
      }
      Base base = Base.of(one);
      double k = base.capacity();
      // What crossed slots beyond the placement model's own calls, carried forward as measured.
      double cross = Math.max(0, big.perOp(big.peerCalls + big.redirects) - modelPeerPerOp(bigLoad))
          * base.peerWeight();
      double leasesAt = big.perOp(big.leaseRenewals) * base.peerWeight();
      double zkPerOp = big.perOp(big.zkRequests);
      for (int n : predict) {
        PlacementLoads.Load load = loads.getOrDefault(n, Map.of()).get(phase);
        if (load == null) {
          continue;
        }
        double share = load.busiestShare(base.peerWeight());
        double balance = 1 / (n * share);
        double eCross = 1 / (1 + cross);
        double eLease = 1 / (1 + leasesAt * n / largest);
        double slotsBound = n * k * balance * eCross * eLease;
        double zkBound = zkPerOp > 0 ? zkCapacity / zkPerOp : Double.POSITIVE_INFINITY;
        double predicted = Math.min(slotsBound, zkBound);
        String limit;
        if (zkBound < slotsBound) {
          limit = String.format(Locale.ROOT, "ZooKeeper (%.3f requests/op)", zkPerOp);
        } else if (balance <= eCross && balance <= eLease) {
          limit = balance > 0.95 ? "none yet (even load)" : String.format(Locale.ROOT,
              "the busiest slot: %.2f× the mean (a hot directory, placement, or calls between slots: %.2f/op)",
              n * share, modelPeerPerOp(load));
        } else if (eCross <= eLease) {
          limit = String.format(Locale.ROOT, "calls crossing slots beyond placement (%.3f per op)", cross);
        } else {
          limit = "lease renewals";
        }
        rows.add(List.of(phase, String.valueOf(n), ClusterReport.num(predicted), ClusterReport.two(predicted / (n * k)),
            ClusterReport.two(balance), ClusterReport.two(eCross), ClusterReport.two(eLease),
            Double.isInfinite(zkBound) ? "no ZooKeeper requests" : ClusterReport.num(zkBound), limit));
      }
    }
    return new Table(String.format(Locale.ROOT, "The model beyond this machine (slice %s; what crossed slots beyond"
            + " placement, lease renewals and ZooKeeper requests per op as measured on %d slots; ZooKeeper allowed"
            + " %s requests/s)", ClusterReport.cpus(slice), largest, ClusterReport.num(zkCapacity)),
        List.of("phase", "slots", "predicted ops/s", "efficiency", "balance factor", "cross-slot factor",
            "lease factor", "ZooKeeper bound ops/s", "limits first"), rows);
  }
}
