package org.indexfs.bench.replay;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Phase two of a replay (IndexFS paper §III-B): re-issues a trace's records against one target
 * with T worker threads, as fast as possible or at the trace's own pace times a rate factor,
 * keeping the order of calls on related paths ({@link PathOrdering}). At most {@code window}
 * calls are registered but unfinished at once, which bounds memory on traces of any length. Each
 * outcome is checked against the plan's {@link Expectation}; a call that fails in an unexpected
 * way (even opening the caller's FileSystem) is a {@link Difference}, never the end of the run.
 */
final class Replayer {
  private static final PathOrdering.Call STOP = new PathOrdering.Call(null);

  /** One run over (part of) a trace: per-command stats, wall time, and every record that differed. */
  record Segment(Map<Command, CommandStats> stats, long calls, double seconds, List<Difference> differences) {}

  private final Identities identities;
  private final CallRunner runner;
  private final PrecreatePlan plan;
  private final int threads;
  private final double rate;
  private final int window;
  private final AtomicLong completed = new AtomicLong();

  /** @param rate 0 for as fast as possible; otherwise trace time is divided by it (2 = twice as fast) */
  Replayer(Identities identities, ReplayPolicy policy, PrecreatePlan plan, int threads, double rate) {
    this.identities = identities;
    this.runner = new CallRunner(policy);
    this.plan = plan;
    this.threads = threads;
    this.rate = rate;
    this.window = Math.max(1024, threads * 512);
  }

  long completed() {
    return completed.get();
  }

  /**
   * Replays up to {@code limit} records of {@code events}. Outcomes go to {@code log} at
   * {@code ordinalOffset} + the record's place; differences carry {@code copy}.
   */
  Segment replay(Iterator<AuditEvent> events, long limit, int copy, OutcomeLog log, int ordinalOffset)
      throws IOException {
    BlockingQueue<PathOrdering.Call> ready = new LinkedBlockingQueue<>();
    PathOrdering ordering = new PathOrdering(ready::add);
    Semaphore inFlight = new Semaphore(window);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Queue<Difference> differences = new ConcurrentLinkedQueue<>();
    List<Map<Command, CommandStats>> perWorker = new ArrayList<>();
    List<Thread> workers = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      Map<Command, CommandStats> stats = new EnumMap<>(Command.class);
      perWorker.add(stats);
      Thread t = new Thread(() -> work(ready, ordering, inFlight, stats, failure, copy, log, differences), "replay-" + i);
      t.setDaemon(true);
      workers.add(t);
      t.start();
    }
    long wallStart = System.nanoTime();
    long registered = 0;
    try {
      long traceStart = -1;
      while (registered < limit && events.hasNext() && failure.get() == null) {
        AuditEvent e = events.next();
        if (rate > 0 && e.timeMillis() > 0) {
          if (traceStart < 0) {
            traceStart = e.timeMillis();
          }
          pace(wallStart, (long) ((e.timeMillis() - traceStart) * 1_000_000L / rate));
        }
        while (!inFlight.tryAcquire(100, TimeUnit.MILLISECONDS)) {
          if (failure.get() != null) {
            break;
          }
        }
        if (failure.get() != null) {
          break;
        }
        ordering.register(new PathOrdering.Call(e, ordinalOffset + (int) registered));
        registered++;
      }
      // Every permit back means every registered call has finished.
      while (!inFlight.tryAcquire(window, 100, TimeUnit.MILLISECONDS)) {
        if (failure.get() != null) {
          break;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Replay interrupted");
    } finally {
      for (int i = 0; i < threads; i++) {
        ready.add(STOP);
      }
      for (Thread t : workers) {
        try {
          t.join();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
    double seconds = (System.nanoTime() - wallStart) / 1e9;
    if (failure.get() != null) {
      throw new IOException("Replay worker failed: " + failure.get(), failure.get());
    }
    List<Difference> sorted = new ArrayList<>(differences);
    sorted.sort(Comparator.comparingInt(Difference::ordinal));
    return new Segment(ReplayResult.merge(perWorker), registered, seconds, sorted);
  }

  private static void pace(long wallStart, long offsetNanos) throws InterruptedException {
    long wait = wallStart + offsetNanos - System.nanoTime();
    if (wait > 0) {
      TimeUnit.NANOSECONDS.sleep(wait);
    }
  }

  private void work(BlockingQueue<PathOrdering.Call> ready, PathOrdering ordering, Semaphore inFlight,
      Map<Command, CommandStats> stats, AtomicReference<Throwable> failure, int copy, OutcomeLog log,
      Queue<Difference> differences) {
    try {
      while (true) {
        PathOrdering.Call call = ready.take();
        if (call == STOP) {
          return;
        }
        try {
          AuditEvent e = call.event;
          long t0 = System.nanoTime();
          CallRunner.Outcome outcome;
          try {
            outcome = runner.run(identities.forUser(e.user()), e);
          } catch (IOException | RuntimeException ex) {
            outcome = CallRunner.outcome(ex); // the caller's FileSystem would not open
          }
          long micros = (System.nanoTime() - t0) / 1000;
          Expectation expected = plan.expected(e);
          stats.computeIfAbsent(e.command(), c -> new CommandStats()).record(e, expected, outcome.name(), micros);
          log.record(call.ordinal, outcome.name());
          if (!expected.matches(e.command(), outcome.name())) {
            differences.add(new Difference(copy, call.ordinal, e, expected, outcome.name(),
                outcome.message() == null ? "" : outcome.message(), plan.note(e.line())));
          }
        } finally {
          ordering.completed(call);
          completed.incrementAndGet();
          inFlight.release();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Throwable t) {
      failure.compareAndSet(null, t); // a bug here, not a failed call: stop the replay loudly
    }
  }
}
