package org.indexfs.bench.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.indexfs.bench.report.Table;
import org.junit.jupiter.api.Test;

/** The model's two halves: the placement model's shares, and the prediction against measurements. */
class ScaleModelTest {
  private final ClusterOptions o = ClusterOptions.parse(new String[] {"--files-per-slice", "2000", "--trace-calls-per-slice", "0"});

  @Test
  void oneSlotCarriesEverythingAndPrivateDirectoriesSpreadOverEight() throws Exception {
    assertThat(PlacementLoads.loads(o, 1, 0.1, null).values())
        .allSatisfy(l -> assertThat(l.busiestShare(1)).isEqualTo(1.0));
    Map<String, PlacementLoads.Load> eight = PlacementLoads.loads(o, 8, 0.1, null);
    assertThat(eight.get("create (private dirs)").busiestShare(0)).isBetween(0.125, 0.25);
    // A create raises its directory's mtime where the directory's entry lives: mostly another slot.
    assertThat(eight.get("create (private dirs)").peerCallsTotal()).isPositive();
    assertThat(eight.get("stat (private dirs)").peerCallsTotal()).isZero();
    // The shared directory starts on one slot and splits while it fills; once split, its stats spread.
    assertThat(eight.get("create (shared dir)").busiestShare(0))
        .isGreaterThan(eight.get("stat (shared dir)").busiestShare(0));
    assertThat(eight.get("stat (shared dir)").busiestShare(0)).isLessThan(0.25);
  }

  @Test
  void thePredictionIsOneSlotsCapacityOverTheBusiestShareAndAMissNamesItsCause() {
    Config one = Config.indexfs(1, 0.1);
    Config four = Config.indexfs(4, 0.1);
    Config eight = Config.indexfs(8, 0.1);
    String phase = "stat (private dirs)";
    List<Measurement> ms = List.of(
        measurement(one, phase, 1_000, 1.0, new long[] {100_000_000L}),           // a whole slice: 1,000 ops/s
        measurement(four, phase, 3_800, 1.0, new long[] {100, 100, 100, 100}),     // as predicted (4,000)
        measurement(eight, phase, 4_000, 1.0, new long[] {50, 50, 50, 50, 50, 50, 50, 50}));
    PlacementLoads.Load even4 = new PlacementLoads.Load(new long[] {1, 1, 1, 1}, new long[4]);
    PlacementLoads.Load even8 = new PlacementLoads.Load(new long[] {1, 1, 1, 1, 1, 1, 1, 1}, new long[8]);
    Table t = ScaleModel.check(List.of(phase), Summary.of(ms), List.of(1, 4, 8), 0.1,
        Map.of(4, Map.of(phase, even4), 8, Map.of(phase, even8)));
    assertThat(t.rows()).hasSize(2);
    assertThat(t.rows().get(0).get(3)).isEqualTo("4,000");
    assertThat(t.rows().get(0).get(8)).isEqualTo("within ±25 %");
    assertThat(t.rows().get(1).get(3)).isEqualTo("8,000");
    assertThat(t.rows().get(1).get(4)).isEqualTo("-50 %");
    assertThat(t.rows().get(1).get(8)).contains("did not saturate");
  }

  /** {@code ops} operations in one second, the servers' CPU split over the hosts as {@code weights}, at {@code use} of the slices. */
  private static Measurement measurement(Config c, String phase, long ops, double use, long[] weights) {
    Histogram h = new Histogram(3_600_000_000L, 3);
    h.recordValueWithCount(1000, ops);
    double window = 1.0;
    long total = 0;
    for (long w : weights) {
      total += w;
    }
    // Eight slots at half their slices: the measurement the model over-predicts.
    double scale = c.slices() == 8 ? 0.5 : use;
    java.util.Map<String, Long> cpu = new java.util.LinkedHashMap<>();
    List<String> hosts = c.serverHosts();
    for (int k = 0; k < hosts.size(); k++) {
      cpu.put(hosts.get(k), (long) (c.quotaPerHost() * hosts.size() * window * 1e9 * scale * weights[k] / total));
    }
    return new Measurement(0, c, phase, ops, 1.0, 0, h, window, cpu, 0, 0, 0, 100, 90, 0.4, ops, 0, 0, 0, 0, 0, 0,
        Map.of(), List.of());
  }
}
