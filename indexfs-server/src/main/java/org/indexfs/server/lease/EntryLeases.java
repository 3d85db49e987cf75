package org.indexfs.server.lease;

import java.io.InterruptedIOException;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Leases on directory entries, remembered the IndexFS way (SC'14, §II-B): per entry only the
 * latest expiry granted, never who holds a lease. A lookup {@link #grant}s a TTL; a mutation of
 * the entry {@link #revoke}s: it stops new grants, waits until the latest expiry has passed, and
 * applies while holding the returned {@link Revocation}. No client is ever called back, so there
 * are no invalidation storms; the price is that only the mutation waits, at most one lease.
 *
 * <p>TTLs are relative. The client caches an entry until {@code receivedAt + ttl − margin} on its
 * own clock; since it receives the reply after the server recorded {@code now + ttl}, its margin
 * covers the reply's flight time. Clocks are never compared across machines.
 *
 * <p>The table is bounded: at most {@code capacity} entries, in an LRU that evicts only expired
 * entries. When no entry can be evicted, a grant on a new entry answers 0 (uncacheable) instead
 * of dropping a lease early. It is split into stripes of at least {@value #MIN_ENTRIES_PER_STRIPE}
 * entries, each with its own lock, so concurrent lookups rarely contend; the LRU order is then
 * per stripe.
 *
 * <p>Thread-safe. {@link #grant} never blocks beyond a stripe's short critical section.
 */
public final class EntryLeases {
  /**
   * Half-life of the read and write counts the rate policy weighs: a few of the longest leases, so
   * an entry's recent mix matters and what it did a minute ago hardly does.
   */
  public static final long RATE_HALF_LIFE_NANOS = TimeUnit.SECONDS.toNanos(5);

  static final int MIN_ENTRIES_PER_STRIPE = 1024;
  static final int MAX_STRIPES = 16;

  /** A mutation's hold on an entry: grants on it stay stopped until {@link #close}. */
  public interface Revocation extends AutoCloseable {
    /** Re-opens grants on the entry once the last revocation of it closes. Idempotent. */
    @Override
    void close();

    /** How long {@link #revoke} waited for leases to expire, in nanos of the table's clock. */
    long waitedNanos();
  }

  /** How a revocation waits; {@code TimeUnit.NANOSECONDS::sleep} in production. */
  @FunctionalInterface
  interface Sleeper {
    void sleepNanos(long nanos) throws InterruptedException;
  }

  private final int capacity;
  private final LongSupplier clock;
  private final Sleeper sleeper;
  private final long maxTtlMs;
  private final long graceUntilNanos;
  private final LeaseStripe[] stripes;

  private final LongAdder grants = new LongAdder();
  private final LongAdder uncacheable = new LongAdder();
  private final LongAdder refusedFull = new LongAdder();
  private final LongAdder revocations = new LongAdder();
  private final LongAdder revocationWaitNanos = new LongAdder();

  /**
   * @param capacity the most entries remembered (indexfs.lease capacity)
   * @param nanoClock monotonic nanos: {@code System::nanoTime} in production
   */
  public EntryLeases(LeasePolicy policy, int capacity, LongSupplier nanoClock) {
    this(policy, capacity, nanoClock, TimeUnit.NANOSECONDS::sleep);
  }

  EntryLeases(LeasePolicy policy, int capacity, LongSupplier nanoClock, Sleeper sleeper) {
    Objects.requireNonNull(policy, "policy");
    if (capacity < 1) {
      throw new IllegalArgumentException("Lease table capacity must be >= 1, was " + capacity);
    }
    this.capacity = capacity;
    this.clock = Objects.requireNonNull(nanoClock, "nanoClock");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    this.maxTtlMs = policy.maxTtlMs();
    // Leases are not durable (SC'14 §II-E): a restarted server forgot what it granted, yet its
    // clients may hold leases granted by the previous incarnation up to maxTtl before this
    // moment. Until maxTtl has passed every mutation waits as if each entry had such a lease.
    this.graceUntilNanos = nanoClock.getAsLong() + TimeUnit.MILLISECONDS.toNanos(maxTtlMs);
    int n = stripeCount(capacity);
    this.stripes = new LeaseStripe[n];
    for (int i = 0; i < n; i++) {
      // Shares add up to exactly capacity.
      stripes[i] = new LeaseStripe(capacity / n + (i < capacity % n ? 1 : 0), policy, nanoClock);
    }
  }

  static int stripeCount(int capacity) {
    int byCapacity = Math.max(1, capacity / MIN_ENTRIES_PER_STRIPE);
    return Math.min(MAX_STRIPES, Integer.highestOneBit(byCapacity));
  }

  /**
   * A lookup of the entry at tree depth {@code depth}: counts a read and returns the TTL granted
   * in ms, recording now + ttl as the entry's latest expiry if it is later. Returns 0
   * (uncacheable) while a revocation of the entry is in progress, when the policy grants nothing,
   * or when the table is full of unexpired leases and the entry is new. Never blocks.
   */
  public long grant(LeaseKey key, int depth) {
    long ttl = stripe(key).grant(key, depth, maxTtlMs);
    if (ttl > 0) {
      grants.increment();
      return ttl;
    }
    uncacheable.increment();
    if (ttl == LeaseStripe.REFUSED_FULL) {
      refusedFull.increment();
    }
    return 0;
  }

  /**
   * A mutation of the entry: stops new grants on it, counts a write, and sleeps until its latest
   * expiry (and the restart grace) has passed. Only the caller waits; lookups of the entry get
   * uncacheable answers meanwhile. Grants resume when the returned handle is closed, so hold it
   * while applying the mutation. Concurrent revocations of one entry are fine.
   *
   * @throws InterruptedIOException if interrupted while waiting (grants are re-opened and the
   *     thread's interrupt status is kept)
   */
  public Revocation revoke(LeaseKey key) throws InterruptedIOException {
    LeaseStripe stripe = stripe(key);
    long expiry = stripe.beginRevocation(key);
    long deadline = graceUntilNanos - expiry > 0 ? graceUntilNanos : expiry;
    long start = clock.getAsLong();
    if (deadline - start > 0) {
      try {
        org.indexfs.server.Blocking.check("wait for leases on " + key);
      } catch (RuntimeException e) {
        stripe.endRevocation(key);
        throw e;
      }
    }
    try {
      for (long left = deadline - start; left > 0; left = deadline - clock.getAsLong()) {
        sleeper.sleepNanos(left);
      }
    } catch (InterruptedException e) {
      stripe.endRevocation(key);
      Thread.currentThread().interrupt();
      InterruptedIOException io = new InterruptedIOException(
          "Interrupted waiting for leases on " + key + " to expire");
      io.initCause(e);
      throw io;
    }
    long waited = clock.getAsLong() - start;
    revocations.increment();
    revocationWaitNanos.add(waited);
    return new Hold(stripe, key, waited);
  }

  private static final class Hold implements Revocation {
    private final LeaseStripe stripe;
    private final LeaseKey key;
    private final long waitedNanos;
    private final AtomicBoolean closed = new AtomicBoolean();

    Hold(LeaseStripe stripe, LeaseKey key, long waitedNanos) {
      this.stripe = stripe;
      this.key = key;
      this.waitedNanos = waitedNanos;
    }

    @Override
    public void close() {
      if (closed.compareAndSet(false, true)) {
        stripe.endRevocation(key);
      }
    }

    @Override
    public long waitedNanos() {
      return waitedNanos;
    }
  }

  /** Entries remembered now; never more than {@link #capacity}. */
  public int size() {
    int n = 0;
    for (LeaseStripe s : stripes) {
      n += s.size();
    }
    return n;
  }

  public int capacity() {
    return capacity;
  }

  /** Grants with a TTL above 0. */
  public long grants() {
    return grants.sum();
  }

  /** Lookups answered 0 (uncacheable), for any reason. */
  public long uncacheable() {
    return uncacheable.sum();
  }

  /** Of {@link #uncacheable}, those refused because the table was full of unexpired leases. */
  public long refusedFull() {
    return refusedFull.sum();
  }

  /** Revocations that finished waiting. */
  public long revocations() {
    return revocations.sum();
  }

  /** Total time those revocations waited, in nanos. */
  public long revocationWaitNanos() {
    return revocationWaitNanos.sum();
  }

  /** Whether the entry is remembered, without touching its place in the LRU (for tests). */
  boolean remembers(LeaseKey key) {
    return stripe(key).remembers(key);
  }

  private LeaseStripe stripe(LeaseKey key) {
    int h = key.hashCode();
    h ^= h >>> 16;
    return stripes[h & (stripes.length - 1)];
  }
}
