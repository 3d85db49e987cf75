package org.indexfs.bench.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.indexfs.client.NetHosts;
import org.junit.jupiter.api.Test;

/**
 * The emulated machines hold what the bench promises: a program runs inside its host's slice, the
 * quota the bench writes is the quota the kernel enforces (a busy loop on a 0.1-CPU slice gets no
 * more than a tenth of a core), and every packet between two hosts pays the delay each way
 * (netem, or netdelay where the kernel has no netem). Needs root, ip netns, ping and a cgroup
 * file system, as bench cluster does.
 */
class EmulatedHostsTest {
  @Test
  void aHostsProgramRunsInItsSliceWhichHoldsItsQuotaAndItsPacketsPayTheDelay() throws Exception {
    assumeTrue(NetHosts.available(), "needs root and ip netns (network namespaces)");
    try {
      EmulatedHosts.checkMachine();
    } catch (IllegalStateException e) {
      assumeTrue(false, e.getMessage());
    }
    Path work = Files.createTempDirectory(Files.createDirectories(
        Path.of(System.getProperty("test.build.data", "target/test-data"))), "hosts");
    try (EmulatedHosts net = new EmulatedHosts(List.of("a", "b"), work, 1_000, 10_000)) {
      CpuSlices.Slice a = net.slice("a");
      a.limit(0.1);
      assertThat(a.limitCpus()).isEqualTo(0.1);
      HostProgram busy = net.start("a", "busy", List.of("/bin/sh", "-c", "while :; do :; done"));
      long deadline = System.currentTimeMillis() + 10_000;
      while (!a.contains(busy.pid()) && System.currentTimeMillis() < deadline) {
        Thread.sleep(20); // the program's shell joins the slice as its first act
      }
      assertThat(a.contains(busy.pid())).isTrue();
      long cpu0 = a.usageNanos();
      CpuSlices.Throttling t0 = a.throttling();
      long wall0 = System.nanoTime();
      Thread.sleep(1_000);
      long cpu = a.usageNanos() - cpu0;
      long wall = System.nanoTime() - wall0;
      // The kernel's promise: at most the quota of every 10 ms period the second touched.
      assertThat(cpu).isLessThanOrEqualTo((long) (0.1 * (wall + 10_000_000L) * 1.02));
      assertThat(a.throttling().minus(t0).throttledPeriods()).isPositive();
      busy.close();
      a.unlimit();
      assertThat(a.limitCpus()).isEqualTo(-1);

      EmulatedHosts.Rtt rtt = net.ping("a", "b", 20);
      assertThat(rtt.received()).isEqualTo(20);
      assertThat(rtt.minMicros()).as("1 ms each way").isGreaterThanOrEqualTo(2_000);
    }
  }
}
