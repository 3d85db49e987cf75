package org.indexfs.server.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InterruptedIOException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Granting, revoking and the restart grace of directory-entry leases (SC'14 §II-B, §II-E). */
class EntryLeasesTest {
  private static final LeaseKey DIR = new LeaseKey(1, "dir");
  private static final LeaseKey OTHER = new LeaseKey(1, "other");

  private final ManualClock clock = new ManualClock();

  private EntryLeases table(LeasePolicy policy) {
    return new EntryLeases(policy, 100, clock, clock.sleeper());
  }

  /** A table whose restart grace is already over. */
  private EntryLeases settledTable(LeasePolicy policy) {
    EntryLeases t = table(policy);
    clock.advanceMs(policy.maxTtlMs());
    return t;
  }

  private static long ms(long nanos) {
    return TimeUnit.NANOSECONDS.toMillis(nanos);
  }

  @Test
  void grantsStopDuringRevocationAndResumeAfter() throws Exception {
    EntryLeases t = settledTable(LeasePolicy.fixed(1000));
    assertEquals(1000, t.grant(DIR, 1));
    try (EntryLeases.Revocation r = t.revoke(DIR)) {
      assertEquals(1000, ms(r.waitedNanos()));
      assertEquals(0, t.grant(DIR, 1), "the entry being changed is uncacheable");
      assertEquals(0, t.grant(DIR, 1));
      assertEquals(1000, t.grant(OTHER, 1), "other entries are unaffected");
    }
    assertEquals(1000, t.grant(DIR, 1));
    assertEquals(3, t.grants());
    assertEquals(2, t.uncacheable());
    assertEquals(0, t.refusedFull());
  }

  @Test
  void revocationWaitsUntilLatestExpiryButNoLonger() throws Exception {
    EntryLeases t = settledTable(LeasePolicy.fixed(2000));
    assertEquals(2000, t.grant(DIR, 1));
    clock.advanceMs(500);
    assertEquals(2000, t.grant(DIR, 1)); // latest expiry is now 2500 ms after the first grant
    clock.advanceMs(300);
    long before = clock.sleptNanos();
    try (EntryLeases.Revocation r = t.revoke(DIR)) {
      assertEquals(TimeUnit.MILLISECONDS.toNanos(1700), r.waitedNanos());
      assertEquals(r.waitedNanos(), clock.sleptNanos() - before);
    }
    assertEquals(1, t.revocations());
    assertEquals(TimeUnit.MILLISECONDS.toNanos(1700), t.revocationWaitNanos());
  }

  @Test
  void aShorterLaterGrantDoesNotShortenTheWait() throws Exception {
    EntryLeases t = settledTable(LeasePolicy.depth(3000));
    assertEquals(3000, t.grant(DIR, 1));
    clock.advanceMs(100);
    assertEquals(1000, t.grant(DIR, 3)); // same entry reached at another depth: expiry stays
    try (EntryLeases.Revocation r = t.revoke(DIR)) {
      assertEquals(2900, ms(r.waitedNanos()));
    }
  }

  @Test
  void revocationAfterTheLeaseExpiredDoesNotWait() throws Exception {
    EntryLeases t = settledTable(LeasePolicy.fixed(2000));
    t.grant(DIR, 1);
    clock.advanceMs(2000);
    try (EntryLeases.Revocation r = t.revoke(DIR)) {
      assertEquals(0, r.waitedNanos());
    }
  }

  @Test
  void revocationOfUnleasedEntryDoesNotWait() throws Exception {
    EntryLeases t = settledTable(LeasePolicy.fixed(2000));
    t.grant(OTHER, 1);
    long before = clock.sleptNanos();
    try (EntryLeases.Revocation r = t.revoke(DIR)) {
      assertEquals(0, r.waitedNanos());
    }
    assertEquals(before, clock.sleptNanos());
    assertEquals(2000, t.grant(DIR, 1), "grants re-open after the revocation");
  }

  @Test
  void restartGraceMakesEarlyRevocationsWait() throws Exception {
    // A restarted server forgot its grants; its clients may hold leases up to maxTtl old.
    EntryLeases t = table(LeasePolicy.fixed(2000));
    clock.advanceMs(500);
    try (EntryLeases.Revocation r = t.revoke(DIR)) {
      assertEquals(1500, ms(r.waitedNanos()), "waits until construction + maxTtl");
    }
    assertEquals(2000, clock.elapsedNanos() / 1_000_000);
    try (EntryLeases.Revocation r = t.revoke(OTHER)) {
      assertEquals(0, r.waitedNanos(), "the grace is over");
    }
  }

  @Test
  void restartGraceFollowsThePolicysLongestLease() throws Exception {
    EntryLeases t = table(LeasePolicy.depth(3000));
    try (EntryLeases.Revocation r = t.revoke(DIR)) {
      assertEquals(3000, ms(r.waitedNanos()));
    }
  }

  @Test
  void aLeaseGrantedDuringTheGraceThatOutlastsItIsWaitedFor() throws Exception {
    EntryLeases t = table(LeasePolicy.fixed(2000));
    clock.advanceMs(1500);
    t.grant(DIR, 1);
    try (EntryLeases.Revocation r = t.revoke(DIR)) {
      assertEquals(2000, ms(r.waitedNanos()));
    }
  }

  @Test
  void concurrentRevocationsOfOneEntryReopenGrantsWhenTheLastCloses() throws Exception {
    EntryLeases t = settledTable(LeasePolicy.fixed(1000));
    EntryLeases.Revocation first = t.revoke(DIR);
    EntryLeases.Revocation second = t.revoke(DIR);
    first.close();
    assertEquals(0, t.grant(DIR, 1), "one mutation is still applying");
    first.close(); // closing twice must not re-open grants early
    assertEquals(0, t.grant(DIR, 1));
    second.close();
    assertEquals(1000, t.grant(DIR, 1));
  }

  @Test
  void interruptedRevocationThrowsKeepsTheInterruptAndReopensGrants() {
    EntryLeases t = new EntryLeases(LeasePolicy.fixed(1000), 100, clock, nanos -> {
      throw new InterruptedException("test");
    });
    InterruptedIOException e = assertThrows(InterruptedIOException.class, () -> t.revoke(DIR));
    assertTrue(e.getMessage().contains("dir"), e.getMessage());
    assertTrue(Thread.interrupted(), "interrupt status kept (and cleared here)");
    assertEquals(1000, t.grant(DIR, 1));
    assertEquals(0, t.revocations());
  }

  @Test
  void productionSleepIsInterruptible() {
    EntryLeases t = new EntryLeases(LeasePolicy.fixed(60_000), 100, System::nanoTime);
    Thread.currentThread().interrupt();
    assertThrows(InterruptedIOException.class, () -> t.revoke(DIR));
    assertTrue(Thread.interrupted());
  }

  @Test
  void rateLeasesShrinkWithWritesAndRecoverAsOldWritesDecay() throws Exception {
    EntryLeases t = settledTable(LeasePolicy.rate(1000));
    assertEquals(1000, t.grant(DIR, 3), "never written: the full lease");
    for (int i = 0; i < 20; i++) {
      clock.advanceMs(1000); // past the lease: revocations do not wait
      t.revoke(DIR).close();
    }
    long writeHeavy = t.grant(DIR, 3);
    assertTrue(writeHeavy > 0 && writeHeavy < 200, "mostly written: " + writeHeavy);
    try (EntryLeases.Revocation r = t.revoke(DIR)) {
      assertEquals(writeHeavy, ms(r.waitedNanos()), "waits for that short lease");
    }
    clock.advanceNanos(10 * EntryLeases.RATE_HALF_LIFE_NANOS);
    long afterQuiet = t.grant(DIR, 3);
    assertTrue(afterQuiet > 900, "old writes weigh little after ten half-lives: " + afterQuiet);
  }

  @Test
  void aPolicyThatGrantsNothingAnswersUncacheable() throws Exception {
    EntryLeases t = settledTable(LeasePolicy.fixed(0));
    assertEquals(0, t.grant(DIR, 1));
    assertEquals(1, t.uncacheable());
    try (EntryLeases.Revocation r = t.revoke(DIR)) {
      assertEquals(0, r.waitedNanos());
    }
  }

  @Test
  void aRealFixedTwoSecondLeaseMakesAChmodWaitAtMostTwoSeconds() throws Exception {
    // The must-show bound, on the real clock: grant at t0, mutate a little later; the mutation
    // waits for the rest of the lease and no longer. Grace ends before the lease does here.
    EntryLeases t = new EntryLeases(LeasePolicy.fixed(2000), 1000, System::nanoTime);
    long t0 = System.nanoTime();
    assertEquals(2000, t.grant(DIR, 1));
    Thread.sleep(300);
    long revokeAt = System.nanoTime();
    try (EntryLeases.Revocation r = t.revoke(DIR)) {
      long done = System.nanoTime();
      long slackMs = 250; // scheduler wake-up on a loaded machine; not a performance bound
      assertTrue(done - t0 >= TimeUnit.SECONDS.toNanos(2), "returned before the lease expired");
      assertTrue(r.waitedNanos() <= TimeUnit.MILLISECONDS.toNanos(2000 + slackMs),
          "waited " + ms(r.waitedNanos()) + " ms");
      long epsilon = TimeUnit.MILLISECONDS.toNanos(50); // revoke reads the clock after revokeAt
      assertTrue(r.waitedNanos() >= TimeUnit.SECONDS.toNanos(2) - (revokeAt - t0) - epsilon,
          "waited " + ms(r.waitedNanos()) + " ms, less than the rest of the lease");
      assertTrue(done - revokeAt <= TimeUnit.MILLISECONDS.toNanos(2000 + slackMs));
    }
  }

  @Test
  void constructorRefusesAnEmptyTable() {
    assertThrows(IllegalArgumentException.class,
        () -> new EntryLeases(LeasePolicy.fixed(1), 0, System::nanoTime));
  }
}
