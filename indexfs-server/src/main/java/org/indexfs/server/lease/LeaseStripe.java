package org.indexfs.server.lease;

import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * One lock's share of {@link EntryLeases}: an access-ordered LRU of remembered entries, at most
 * {@code capacity} of them, plus the revocations in progress on this share's keys. Every method
 * holds the stripe's monitor briefly and never waits.
 *
 * <p>Times are {@link System#nanoTime}-style values, so they are compared by subtraction (they may
 * wrap) and never against another machine's clock.
 */
final class LeaseStripe {
  /** {@link #grant} answered 0 because a mutation of the entry is in progress. */
  static final long REFUSED_REVOKING = -1;
  /** {@link #grant} answered 0: every entry it could evict still holds an unexpired lease. */
  static final long REFUSED_FULL = -2;

  /**
   * How many entries from the least-recently-used end an insert looks at for one to evict, so a
   * grant stays O(1) even when the cold end is pinned by unexpired leases.
   */
  static final int EVICTION_SCAN = 32;

  /** What the server remembers of one entry: IndexFS's "one or two variables" per entry. */
  static final class Entry {
    /** The latest expiry granted on this entry. */
    long expiryNanos;
    /** Reads and writes as of {@link #ratesAtNanos}, halved every RATE_HALF_LIFE_NANOS. */
    double reads;
    double writes;
    long ratesAtNanos;

    Entry(long now) {
      this.expiryNanos = now; // already passed: nothing granted yet
      this.ratesAtNanos = now;
    }

    private void decayTo(long now) {
      long elapsed = now - ratesAtNanos;
      if (elapsed > 0) {
        double keep = Math.exp(-elapsed * LN2_PER_HALF_LIFE);
        reads *= keep;
        writes *= keep;
        ratesAtNanos = now;
      }
    }

    void countRead(long now) {
      decayTo(now);
      reads += 1;
    }

    void countWrite(long now) {
      decayTo(now);
      writes += 1;
    }
  }

  private static final double LN2_PER_HALF_LIFE = Math.log(2) / EntryLeases.RATE_HALF_LIFE_NANOS;

  private final int capacity;
  private final LeasePolicy policy;
  private final LongSupplier clock;
  private final LinkedHashMap<LeaseKey, Entry> entries;
  /**
   * Revocations in progress, by key. Kept beside the LRU rather than in it: a revocation must stop
   * grants even when the LRU is full of unexpired leases and cannot take its key, else a slot
   * freed in the middle of the mutation would let a lease be granted on the entry being changed.
   * Its size is bounded by the threads mutating, not by the namespace.
   */
  private final HashMap<LeaseKey, Integer> revoking = new HashMap<>();

  LeaseStripe(int capacity, LeasePolicy policy, LongSupplier clock) {
    this.capacity = capacity;
    this.policy = policy;
    this.clock = clock;
    this.entries = new LinkedHashMap<>(Math.min(capacity, 1 << 16) * 4 / 3 + 1, 0.75f, true);
  }

  /**
   * Counts a read and grants a lease: the TTL in ms (0 when the policy says so), or
   * {@link #REFUSED_REVOKING} / {@link #REFUSED_FULL}.
   */
  synchronized long grant(LeaseKey key, int depth, long maxTtlMs) {
    long now = clock.getAsLong();
    Entry e = entries.get(key);
    if (revoking.containsKey(key)) {
      if (e != null) {
        e.countRead(now);
      }
      return REFUSED_REVOKING;
    }
    if (e == null) {
      e = insert(key, now);
      if (e == null) {
        return REFUSED_FULL;
      }
    }
    e.countRead(now);
    long ttlMs = Math.max(0, Math.min(maxTtlMs, policy.ttlMs(depth, e.reads, e.writes)));
    long expiry = now + ttlMs * 1_000_000L;
    if (expiry - e.expiryNanos > 0) {
      e.expiryNanos = expiry;
    }
    return ttlMs;
  }

  /**
   * Stops grants on {@code key}, counts a write and returns the latest expiry granted on it (a
   * time already passed when it holds no lease). Every call must be paired with
   * {@link #endRevocation}.
   */
  synchronized long beginRevocation(LeaseKey key) {
    long now = clock.getAsLong();
    revoking.merge(key, 1, Integer::sum);
    Entry e = entries.get(key);
    if (e == null) {
      // Not remembered, so it holds no unexpired lease (those are never evicted). Remember the
      // write if there is room: the rate policy needs it for the next grants.
      e = insert(key, now);
      if (e == null) {
        return now;
      }
    }
    e.countWrite(now);
    return e.expiryNanos;
  }

  /** Re-opens grants on {@code key} once the last revocation of it ends. */
  synchronized void endRevocation(LeaseKey key) {
    revoking.computeIfPresent(key, (k, n) -> n == 1 ? null : n - 1);
  }

  synchronized int size() {
    return entries.size();
  }

  /** Whether the entry is remembered, without touching its place in the LRU (for tests). */
  synchronized boolean remembers(LeaseKey key) {
    return entries.containsKey(key);
  }

  /**
   * Adds an entry for {@code key}, first evicting one if the stripe is full; null when none of the
   * {@link #EVICTION_SCAN} least recently used entries may go. Only entries whose lease has
   * expired and that no mutation is revoking are evicted, so the bound holds without dropping a
   * lease a client may still be using.
   */
  private Entry insert(LeaseKey key, long now) {
    if (entries.size() >= capacity && !evictOne(now)) {
      return null;
    }
    Entry e = new Entry(now);
    entries.put(key, e);
    return e;
  }

  private boolean evictOne(long now) {
    // Iterating does not count as access, so this walks from the cold end without reordering.
    Iterator<Map.Entry<LeaseKey, Entry>> it = entries.entrySet().iterator();
    for (int scanned = 0; scanned < EVICTION_SCAN && it.hasNext(); scanned++) {
      Map.Entry<LeaseKey, Entry> candidate = it.next();
      boolean expired = now - candidate.getValue().expiryNanos >= 0;
      if (expired && !revoking.containsKey(candidate.getKey())) {
        it.remove();
        return true;
      }
    }
    return false;
  }
}
