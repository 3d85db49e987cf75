package org.indexfs.bench.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.indexfs.bench.mdtest.MdtestWorkload.Phase;
import org.junit.jupiter.api.Test;

/** What bench cluster runs for a command line: the configurations, their sizes, the CI round. */
class ClusterOptionsTest {
  @Test
  void theDefaultsCompareOneToEightSlotsAndSixteenOnTheSmallerSliceWithBothLocks() {
    ClusterOptions o = ClusterOptions.parse(new String[0]);
    List<Config> configs = Config.all(o);
    assertThat(configs).contains(Config.indexfs(8, 0.1), Config.indexfs(16, 0.05), Config.indexfs(1, 0.05),
        Config.nameNode(NameNodeHost.Lock.GLOBAL, 1, 0.1), Config.nameNode(NameNodeHost.Lock.FINE_GRAINED, 8, 0.1),
        Config.nameNode(NameNodeHost.Lock.FINE_GRAINED, 16, 0.05));
    assertThat(configs).doesNotContain(Config.nameNode(NameNodeHost.Lock.GLOBAL, 16, 0.1));
    // Slots times slice stays within one core, so the other is the clients'.
    assertThat(configs.stream().mapToDouble(Config::cpus).max().orElseThrow()).isLessThanOrEqualTo(0.8 + 1e-9);
    assertThat(o.delayMicros()).isEqualTo(100);
    assertThat(o.phases()).containsExactly(Phase.values());
  }

  @Test
  void theWorkGrowsWithTheSlicesAndKeepsItsShapePerSlice() {
    ClusterOptions o = ClusterOptions.parse(new String[] {"--clients", "2", "--files-per-slice", "2000"});
    for (int n : List.of(1, 2, 4, 8, 16)) {
      long files = (long) o.clients() * o.threadsPerClient(n) * o.filesPerThread(n);
      assertThat(files).as("files at %d slices", n).isBetween(2000L * n * 9 / 10, 2000L * n);
    }
    assertThat(o.threads(1)).isEqualTo(16);
    assertThat(o.threads(8)).isEqualTo(128);
  }

  @Test
  void theCiRoundIsOneAndTwoSlotsAgainstTheNameNodeOnOneSliceForOnePhase() {
    ClusterOptions o = ClusterOptions.parse(new String[] {"--ci"});
    assertThat(Config.all(o)).containsExactly(Config.indexfs(1, 0.1),
        Config.nameNode(NameNodeHost.Lock.GLOBAL, 1, 0.1), Config.indexfs(2, 0.1));
    assertThat(o.phases()).containsExactly(Phase.CREATE);
    assertThat(o.layouts()).containsExactly(false);
    assertThat(o.traceCallsPerSlice()).isZero();
  }

  @Test
  void delaysReadWithTheirUnits() {
    assertThat(ClusterOptions.micros("100us")).isEqualTo(100);
    assertThat(ClusterOptions.micros("1ms")).isEqualTo(1000);
    assertThat(ClusterOptions.micros("0.5ms")).isEqualTo(500);
    assertThat(ClusterOptions.micros("250")).isEqualTo(250);
  }

  @Test
  void aSlotListMustStartAtOneSlot() {
    assertThatThrownBy(() -> ClusterOptions.parse(new String[] {"--slots", "2,4"}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("starts at 1");
    assertThatThrownBy(() -> ClusterOptions.parse(new String[] {"--layouts", "diagonal"}))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void serverSettingsAreIndexFsKeysWithValues() {
    ClusterOptions o = ClusterOptions.parse(new String[] {"--server-conf", "indexfs.lease.max-ms=10000",
        "--server-conf", "indexfs.lease.policy=fixed"});
    assertThat(o.serverConf()).containsExactly("indexfs.lease.max-ms=10000", "indexfs.lease.policy=fixed");
    assertThat(ClusterOptions.parse(new String[0]).serverConf()).isEmpty();
    assertThatThrownBy(() -> ClusterOptions.parse(new String[] {"--server-conf", "dfs.replication=1"}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("indexfs.KEY=VALUE");
    assertThatThrownBy(() -> ClusterOptions.parse(new String[] {"--server-conf", "indexfs.lease.max-ms"}))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
