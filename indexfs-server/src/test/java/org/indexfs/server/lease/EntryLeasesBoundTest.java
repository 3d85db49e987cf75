package org.indexfs.server.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The lease table is bounded and never drops an unexpired lease to stay so: when it cannot evict,
 * new entries are answered uncacheable instead.
 */
class EntryLeasesBoundTest {
  private static final long TTL_MS = 1000;

  private final ManualClock clock = new ManualClock();

  private EntryLeases settledTable(int capacity) {
    EntryLeases t = new EntryLeases(LeasePolicy.fixed(TTL_MS), capacity, clock, clock.sleeper());
    clock.advanceMs(TTL_MS);
    return t;
  }

  private static LeaseKey key(int i) {
    return new LeaseKey(i / 1000, "e" + i);
  }

  @Test
  void tableStaysWithinBoundOverAMillionDistinctEntries() {
    int capacity = 10_000;
    EntryLeases t = settledTable(capacity);
    long ttlNanos = TimeUnit.MILLISECONDS.toNanos(TTL_MS);
    // The most recent successful grants, oldest first from ringNext. Unexpired ones are all in
    // the table, so there are never more than capacity of them: a ring that big holds them all.
    int[] ringKey = new int[capacity];
    long[] ringAt = new long[capacity];
    int ringNext = 0;
    int ringSize = 0;
    long refused = 0;
    for (int i = 0; i < 1_000_000; i++) {
      // Alternate bursts of 50,000 grants per lease period (more than the table holds: some are
      // refused) with calm phases of 5,000 per period (all fit once the burst's leases expire).
      boolean burst = (i / 50_000) % 2 == 0;
      clock.advanceNanos(burst ? 20_000 : 200_000);
      long ttl = t.grant(key(i), 1);
      if (ttl > 0) {
        assertEquals(TTL_MS, ttl);
        ringKey[ringNext] = i;
        ringAt[ringNext] = clock.getAsLong();
        ringNext = (ringNext + 1) % capacity;
        ringSize = Math.min(capacity, ringSize + 1);
      } else {
        refused++;
      }
      int size = t.size();
      if (size > capacity) {
        fail("table holds " + size + " entries, over its bound of " + capacity + " at grant " + i);
      }
      if (i % 4_999 == 0) {
        long now = clock.getAsLong();
        for (int k = 0; k < ringSize; k++) {
          int slot = Math.floorMod(ringNext - 1 - k, capacity);
          if (now - ringAt[slot] >= ttlNanos) {
            break; // this and older grants have expired
          }
          if (!t.remembers(key(ringKey[slot]))) {
            fail("unexpired lease on entry " + ringKey[slot] + " dropped at grant " + i);
          }
        }
      }
    }
    assertEquals(refused, t.uncacheable());
    assertEquals(refused, t.refusedFull());
    assertTrue(refused > 0, "bursts must overfill the table, else the test proves nothing");
    assertTrue(t.grants() > 500_000, "calm phases must be granted again: " + t.grants());
  }

  @Test
  void aTableFullOfUnexpiredLeasesAnswersUncacheableAndKeepsThem() {
    int capacity = 10_000;
    EntryLeases t = settledTable(capacity);
    int granted = 0;
    for (int i = 0; i < 3 * capacity; i++) {
      boolean wasFull = t.size() == capacity;
      long ttl = t.grant(key(i), 1);
      if (wasFull) {
        assertEquals(0, ttl, "entry " + i + " granted although the table was full");
      }
      if (ttl > 0) {
        granted++;
      }
      assertTrue(t.size() <= capacity);
    }
    assertEquals(capacity, t.size());
    assertEquals(capacity, granted);
    for (int i = 0; i < 3 * capacity; i++) {
      if (t.remembers(key(i))) {
        assertEquals(TTL_MS, t.grant(key(i), 1), "a remembered entry is renewed even when full");
      }
    }
    clock.advanceMs(TTL_MS);
    assertEquals(TTL_MS, t.grant(key(3 * capacity), 1), "expired leases make room again");
    assertEquals(capacity, t.size());
  }

  @Test
  void expiredEntriesAreEvictedLeastRecentlyUsedFirst() {
    EntryLeases t = settledTable(3);
    t.grant(key(1), 1);
    t.grant(key(2), 1);
    t.grant(key(3), 1);
    clock.advanceMs(TTL_MS);
    t.grant(key(1), 1); // renewed: now the most recently used, and unexpired
    assertEquals(TTL_MS, t.grant(key(4), 1));
    assertFalse(t.remembers(key(2)), "the least recently used expired entry goes first");
    assertTrue(t.remembers(key(3)));
    assertEquals(TTL_MS, t.grant(key(5), 1));
    assertFalse(t.remembers(key(3)));
    assertEquals(0, t.grant(key(6), 1), "1, 4 and 5 are all unexpired");
    assertTrue(t.remembers(key(1)) && t.remembers(key(4)) && t.remembers(key(5)));
  }

  @Test
  void anEntryBeingRevokedIsNotEvicted() throws Exception {
    EntryLeases t = settledTable(1);
    t.grant(key(1), 1);
    clock.advanceMs(TTL_MS);
    try (EntryLeases.Revocation r = t.revoke(key(1))) {
      assertEquals(0, r.waitedNanos());
      assertEquals(0, t.grant(key(2), 1));
      assertTrue(t.remembers(key(1)));
    }
    assertEquals(TTL_MS, t.grant(key(2), 1));
    assertFalse(t.remembers(key(1)));
  }

  @Test
  void revocationStopsGrantsEvenWhenTheTableCannotRememberTheEntry() throws Exception {
    EntryLeases t = settledTable(1);
    t.grant(key(1), 1);
    try (EntryLeases.Revocation r = t.revoke(key(2))) {
      assertEquals(0, r.waitedNanos(), "never leased, so nothing to wait for");
      assertFalse(t.remembers(key(2)));
      clock.advanceMs(TTL_MS); // entry 1 expires: there would be room now
      assertEquals(0, t.grant(key(2), 1), "still being changed");
      assertEquals(1, t.size());
    }
    assertEquals(TTL_MS, t.grant(key(2), 1));
  }

  @Test
  void largeTablesAreStripedAndTheSharesAddUpToTheCapacity() {
    assertEquals(1, EntryLeases.stripeCount(1));
    assertEquals(1, EntryLeases.stripeCount(2047));
    assertEquals(8, EntryLeases.stripeCount(10_000));
    assertEquals(16, EntryLeases.stripeCount(1_000_000));
    EntryLeases t = settledTable(10_007);
    for (int i = 0; i < 100_000; i++) {
      t.grant(key(i), 1);
    }
    assertEquals(10_007, t.size(), "every stripe filled to its share, and the shares sum up");
  }
}
