package org.indexfs.bench.replay;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Phase two of a replay (IndexFS paper §III-B): re-issues a trace's records against one target
 * with T worker threads, as fast as possible or at the trace's own pace times a rate factor,
 * keeping the order of calls on related paths ({@link PathOrdering}). At most {@code window}
 * calls are registered but unfinished at once, which bounds memory on traces of any length.
 */
final class Replayer {
  private static final Logger LOG = LoggerFactory.getLogger(Replayer.class);
  private static final PathOrdering.Call STOP = new PathOrdering.Call(null);
  /** Outcomes that differ from the trace are logged with their line, up to this many per replay. */
  private static final int REPORTED_DIFFERENCES = 20;

  private final Identities identities;
  private final CallRunner runner;
  private final int threads;
  private final double rate;
  private final int window;
  private final AtomicLong completed = new AtomicLong();
  private final AtomicLong reported = new AtomicLong();

  /** @param rate 0 for as fast as possible; otherwise trace time is divided by it (2 = twice as fast) */
  Replayer(Identities identities, ReplayPolicy policy, int threads, double rate) {
    this.identities = identities;
    this.runner = new CallRunner(policy);
    this.threads = threads;
    this.rate = rate;
    this.window = Math.max(1024, threads * 512);
  }

  long completed() {
    return completed.get();
  }

  Map<Command, CommandStats> replay(Iterator<AuditEvent> events) throws IOException {
    BlockingQueue<PathOrdering.Call> ready = new LinkedBlockingQueue<>();
    PathOrdering ordering = new PathOrdering(ready::add);
    Semaphore inFlight = new Semaphore(window);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Map<Command, CommandStats>> perWorker = new ArrayList<>();
    List<Thread> workers = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      Map<Command, CommandStats> stats = new EnumMap<>(Command.class);
      perWorker.add(stats);
      Thread t = new Thread(() -> work(ready, ordering, inFlight, stats, failure), "replay-" + i);
      t.setDaemon(true);
      workers.add(t);
      t.start();
    }
    try {
      long traceStart = -1;
      long wallStart = System.nanoTime();
      while (events.hasNext() && failure.get() == null) {
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
        ordering.register(new PathOrdering.Call(e));
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
    if (failure.get() != null) {
      throw new IOException("Replay worker failed: " + failure.get(), failure.get());
    }
    return ReplayResult.merge(perWorker);
  }

  private static void pace(long wallStart, long offsetNanos) throws InterruptedException {
    long wait = wallStart + offsetNanos - System.nanoTime();
    if (wait > 0) {
      TimeUnit.NANOSECONDS.sleep(wait);
    }
  }

  private void work(BlockingQueue<PathOrdering.Call> ready, PathOrdering ordering, Semaphore inFlight,
      Map<Command, CommandStats> stats, AtomicReference<Throwable> failure) {
    try {
      while (true) {
        PathOrdering.Call call = ready.take();
        if (call == STOP) {
          return;
        }
        try {
          AuditEvent e = call.event;
          Identities.Caller caller = identities.forUser(e.user());
          long t0 = System.nanoTime();
          CallRunner.Outcome outcome = runner.run(caller, e);
          long micros = (System.nanoTime() - t0) / 1000;
          stats.computeIfAbsent(e.command(), c -> new CommandStats()).record(e, outcome.name(), micros);
          if (!CallRunner.expected(e, outcome.name()) && reported.incrementAndGet() <= REPORTED_DIFFERENCES) {
            LOG.warn("Trace line {} ({} {}{} as {}, allowed={}) replayed as {}{}", e.line(), e.command().auditName(),
                e.src(), e.dst() == null ? "" : " -> " + e.dst(), e.user(), e.allowed(), outcome.name(),
                outcome.message() == null ? "" : ": " + outcome.message());
          }
        } finally {
          ordering.completed(call);
          completed.incrementAndGet();
          inFlight.release();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException | RuntimeException e) {
      // Opening a caller's FileSystem failed: the target is unusable, stop the replay loudly.
      failure.compareAndSet(null, e);
    }
  }
}
