package org.indexfs.bench.cluster;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Telling a host that had its slice from one with no more work and from one the machine starved. */
class HostUseTest {
  private static HostUse host(double usedShare, long throttled, double waitedSeconds) {
    // 0.1 CPU over 10 s: 1 s of CPU allowed, 1000 periods of 10 ms.
    return new HostUse("slot-0", 0.1, Math.round(usedShare * 1e9), 10,
        new CpuSlices.Throttling(1000, throttled, throttled * 5_000_000L, Math.round(waitedSeconds * 1e9)));
  }

  @Test
  void aHostThatMetItsQuotaHadItsSlice() {
    assertFalse(host(0.98, 700, 30).starved());
  }

  @Test
  void aHostUnderItsSliceThatNeverWaitedHadNoMoreWork() {
    assertFalse(host(0.4, 0, 0.01).starved());
  }

  @Test
  void aHostUnderItsSliceWhoseThreadsWaitedForACpuWasStarved() {
    assertTrue(host(0.4, 3, 2.0).starved(), "0.6 s of its slice unused while its threads waited 2 s");
  }

  @Test
  void hostsWithoutAQuotaAreNeverJudged() {
    assertFalse(new HostUse("client-0", -1, 1, 10, new CpuSlices.Throttling(0, 0, 0, 9_000_000_000L)).starved());
  }
}
