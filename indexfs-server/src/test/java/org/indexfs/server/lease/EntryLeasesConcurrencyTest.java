package org.indexfs.server.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Many handler threads grant while one mutation revokes: only the mutation waits. */
class EntryLeasesConcurrencyTest {
  private static final LeaseKey DIR = new LeaseKey(1, "dir");
  private static final int GRANTERS = 3;

  private final ExecutorService pool = Executors.newFixedThreadPool(GRANTERS + 1);

  /** Granters loop until this is set; set also when a test fails so the pool can stop. */
  private final AtomicBoolean stop = new AtomicBoolean();

  @AfterEach
  void stopPool() throws InterruptedException {
    stop.set(true);
    pool.shutdownNow();
    assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
  }

  @Test
  void grantsOfTheRevokedEntryAreUncacheableWhileOthersGoOn() throws Exception {
    ManualClock clock = new ManualClock();
    CountDownLatch revokerSleeping = new CountDownLatch(1);
    CountDownLatch wake = new CountDownLatch(1);
    EntryLeases t = new EntryLeases(LeasePolicy.fixed(1000), 10_000, clock, nanos -> {
      revokerSleeping.countDown();
      wake.await();
      clock.advanceNanos(nanos);
    });
    clock.advanceMs(1000); // past the restart grace
    assertEquals(1000, t.grant(DIR, 1));

    AtomicBoolean revoking = new AtomicBoolean();
    AtomicLong leakedGrants = new AtomicLong();
    AtomicLong otherGrants = new AtomicLong();
    List<Future<?>> granters = new ArrayList<>();
    for (int g = 0; g < GRANTERS; g++) {
      int id = g;
      granters.add(pool.submit(() -> {
        for (int i = 0; !stop.get(); i++) {
          // A leak is a grant that began and ended inside the hold (revoking is cleared before the
          // revocation closes, so a grant that ends with it still set ended before the close).
          boolean wasRevoking = revoking.get();
          if (t.grant(DIR, 1) > 0 && wasRevoking && revoking.get()) {
            leakedGrants.incrementAndGet();
          }
          if (t.grant(new LeaseKey(2, id + "-" + (i % 500)), 2) > 0) {
            otherGrants.incrementAndGet();
          }
          LockSupport.parkNanos(20_000);
        }
        return null;
      }));
    }
    Future<EntryLeases.Revocation> revoker = pool.submit(() -> t.revoke(DIR));
    assertTrue(revokerSleeping.await(10, TimeUnit.SECONDS));
    revoking.set(true); // from here on no grant of DIR may succeed
    long othersBefore = otherGrants.get();
    waitUntil(() -> otherGrants.get() > othersBefore + 100);
    wake.countDown();
    EntryLeases.Revocation r = revoker.get(10, TimeUnit.SECONDS);
    assertEquals(TimeUnit.MILLISECONDS.toNanos(1000), r.waitedNanos());
    long othersDuringHold = otherGrants.get();
    waitUntil(() -> otherGrants.get() > othersDuringHold + 100); // the mutation "applies"
    revoking.set(false);
    r.close();
    stop.set(true);
    for (Future<?> f : granters) {
      f.get(10, TimeUnit.SECONDS); // rethrows anything a granter threw
    }
    assertEquals(0, leakedGrants.get(), "a lease was granted on an entry being revoked");
    assertEquals(1000, t.grant(DIR, 1));
    assertTrue(t.size() <= t.capacity());
  }

  @Test
  void aRevocationOnTheRealClockOutlastsEveryLeaseGrantedBeforeIt() throws Exception {
    long ttlMs = 200;
    EntryLeases t = new EntryLeases(LeasePolicy.fixed(ttlMs), 10_000, System::nanoTime);
    Thread.sleep(ttlMs); // past the restart grace, so the wait is due to leases alone
    // Latest (call start + ttl) over all successful grants, and grants while the mutation applies.
    AtomicLong latestExpiry = new AtomicLong(System.nanoTime()); // nanoTime compares by subtraction
    AtomicLong revokedAt = new AtomicLong(Long.MAX_VALUE);
    AtomicLong grantsAfterRevoke = new AtomicLong();
    List<Future<?>> granters = new ArrayList<>();
    for (int g = 0; g < GRANTERS; g++) {
      granters.add(pool.submit(() -> {
        while (!stop.get()) {
          long start = System.nanoTime();
          long ttl = t.grant(DIR, 1);
          if (ttl > 0) {
            long expiry = start + TimeUnit.MILLISECONDS.toNanos(ttl);
            latestExpiry.accumulateAndGet(expiry, (a, b) -> b - a > 0 ? b : a);
            if (start - revokedAt.get() > 0) {
              grantsAfterRevoke.incrementAndGet();
            }
          }
          LockSupport.parkNanos(50_000);
        }
        return null;
      }));
    }
    Thread.sleep(100);
    try (EntryLeases.Revocation r = t.revoke(DIR)) {
      long end = System.nanoTime();
      revokedAt.set(end);
      assertTrue(end - latestExpiry.get() >= 0, "revocation returned before a lease expired");
      assertTrue(r.waitedNanos() <= TimeUnit.MILLISECONDS.toNanos(ttlMs + 250));
      Thread.sleep(50); // the mutation applies; lookups go on
      revokedAt.set(Long.MAX_VALUE); // grants resume at close
    }
    stop.set(true);
    for (Future<?> f : granters) {
      f.get(10, TimeUnit.SECONDS);
    }
    assertEquals(0, grantsAfterRevoke.get());
    assertTrue(t.grants() > 0);
  }

  private static void waitUntil(java.util.function.BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() - deadline < 0, "condition not reached in 10 s");
      Thread.sleep(5);
    }
  }
}
