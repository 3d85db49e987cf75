package org.indexfs.server.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The three lease durations of SC'14 §II-B, and how the configured name picks one. */
class LeasePolicyTest {
  @Test
  void fixedGrantsTheSameTtlToEveryEntry() {
    LeasePolicy p = LeasePolicy.fixed(200);
    assertEquals(200, p.ttlMs(1, 0, 0));
    assertEquals(200, p.ttlMs(9, 1, 1000));
    assertEquals(200, p.maxTtlMs());
  }

  @Test
  void depthDividesTheMaximumByTreeDepth() {
    LeasePolicy p = LeasePolicy.depth(3000);
    assertEquals(3000, p.ttlMs(1, 5, 0));
    assertEquals(1500, p.ttlMs(2, 5, 0));
    assertEquals(1000, p.ttlMs(3, 0, 5));
    assertEquals(3000, p.ttlMs(0, 0, 0), "the root itself counts as depth 1");
    assertEquals(3000, p.maxTtlMs());
  }

  @Test
  void rateGivesReadOnlyEntriesTheFullLeaseAndWriteHeavyOnesAlmostNone() {
    LeasePolicy p = LeasePolicy.rate(1000);
    assertEquals(1000, p.ttlMs(4, 50, 0));
    assertEquals(1000, p.ttlMs(4, 0, 0), "no history: nothing says the entry changes");
    assertEquals(500, p.ttlMs(4, 3, 3));
    assertEquals(750, p.ttlMs(4, 3, 1));
    long writeHeavy = p.ttlMs(4, 1, 99);
    assertEquals(10, writeHeavy);
    assertTrue(p.ttlMs(4, 0.001, 1000) < 1);
    assertEquals(1000, p.maxTtlMs());
  }

  @Test
  void ofPicksThePolicyByNameWithItsOwnDuration() {
    assertEquals(LeasePolicy.fixed(100), LeasePolicy.of("fixed", 100, 3000));
    assertEquals(LeasePolicy.depth(3000), LeasePolicy.of("depth", 100, 3000));
    assertEquals(LeasePolicy.rate(3000), LeasePolicy.of(" Rate ", 100, 3000));
    assertInstanceOf(RateLeasePolicy.class, LeasePolicy.of("rate", 100, 3000));
  }

  @Test
  void ofRejectsUnknownNamesSayingWhichAreKnown() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> LeasePolicy.of("lru", 100, 3000));
    assertTrue(e.getMessage().contains("'lru'"), e.getMessage());
    assertTrue(e.getMessage().contains("indexfs.lease.policy"), e.getMessage());
    assertTrue(e.getMessage().contains("fixed, depth or rate"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> LeasePolicy.of(null, 100, 3000));
    assertThrows(IllegalArgumentException.class, () -> LeasePolicy.of("", 100, 3000));
  }

  @Test
  void negativeDurationsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> LeasePolicy.fixed(-1));
    assertThrows(IllegalArgumentException.class, () -> LeasePolicy.depth(-1));
    assertThrows(IllegalArgumentException.class, () -> LeasePolicy.rate(-1));
  }
}
