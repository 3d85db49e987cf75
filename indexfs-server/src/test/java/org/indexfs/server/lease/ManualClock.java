package org.indexfs.server.lease;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A nanosecond clock that moves only when told, and a sleeper that moves it: a revocation that
 * "sleeps" returns at once with its wait measured exactly. Starts near the top of the long range
 * so every test also crosses the wrap-around that System.nanoTime may show.
 */
final class ManualClock implements LongSupplier {
  static final long START = Long.MAX_VALUE - TimeUnit.SECONDS.toNanos(30);

  private final AtomicLong now = new AtomicLong(START);
  private final AtomicLong slept = new AtomicLong();

  @Override
  public long getAsLong() {
    return now.get();
  }

  void advanceMs(long ms) {
    now.addAndGet(TimeUnit.MILLISECONDS.toNanos(ms));
  }

  void advanceNanos(long nanos) {
    now.addAndGet(nanos);
  }

  /** Sleeping advances the clock by exactly the time asked for. */
  EntryLeases.Sleeper sleeper() {
    return nanos -> {
      slept.addAndGet(nanos);
      now.addAndGet(nanos);
    };
  }

  /** Total nanos slept through {@link #sleeper()}. */
  long sleptNanos() {
    return slept.get();
  }

  /** Nanos since the clock was made. */
  long elapsedNanos() {
    return now.get() - START;
  }
}
