package org.indexfs.server.store;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Group commit for {@code indexfs.wal.sync=true} (DESIGN §10). Writers append to the WAL without
 * fsync, take a ticket, and register what must happen once their write is durable — usually
 * sending the reply. One syncer thread fsyncs everything written so far and then runs every
 * completion it covers: nobody parks waiting for a sync, and under load each fsync carries every
 * mutation that arrived while the previous one ran (HDFS's logSync batches the same way).
 *
 * <p>An I/O thread runs a whole read's calls before the syncer starts ({@link #readStarted},
 * {@link #readComplete}): woken at the first of them, the syncer would fsync for that one alone
 * while the I/O thread applies the rest, which then wait for the next fsync — and on this machine
 * an fdatasync costs ~55 µs of CPU, more than the mutation it covers.
 *
 * <p>With {@code sync=false} completions run at once on the caller's thread.
 */
public final class GroupCommit implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(GroupCommit.class);

  private record Pending(long ticket, Consumer<IOException> then) {}

  /**
   * One read of an I/O thread: the calls it runs between {@link #readStarted} and
   * {@link #readComplete}, and whether one of them left a write for the syncer. Owned by the
   * connection that reads (one I/O thread at a time), so it needs no synchronisation.
   */
  public static class Read {
    private boolean open;
    private boolean wrote;

    /** True between {@link #readStarted} and {@link #readComplete}. */
    public final boolean open() {
      return open;
    }
  }

  private final MetadataStore store;
  private final boolean sync;
  private final AtomicLong written = new AtomicLong();
  private volatile long synced;
  private final ConcurrentLinkedQueue<Pending> queue = new ConcurrentLinkedQueue<>();
  private final Thread syncer;
  private volatile boolean sleeping;
  private volatile boolean running = true;
  private final AtomicLong syncs = new AtomicLong();
  private final AtomicLong covered = new AtomicLong();
  // Async subtrees (issue 18): writes answered before their fsync, which must follow within the window.
  private volatile long windowNanos = 200_000_000L;
  private final AtomicLong asyncWritten = new AtomicLong();
  /** System.nanoTime() of the oldest async write not yet covered by a sync (0: none). */
  private final AtomicLong asyncSince = new AtomicLong();
  private final AtomicLong asyncWrites = new AtomicLong();
  private final AtomicLong maxAsyncLagNanos = new AtomicLong();
  /** I/O threads inside a read's calls right now; the syncer lets them finish before it fsyncs. */
  private final java.util.concurrent.atomic.AtomicInteger openReads = new java.util.concurrent.atomic.AtomicInteger();
  private volatile boolean awaitingReads;
  /** The longest the syncer waits for open reads before an fsync (they still get the next one). */
  private static final long READ_WAIT_NANOS = 200_000L;

  public GroupCommit(MetadataStore store, boolean sync, int slot) {
    this.store = store;
    this.sync = sync;
    if (sync) {
      syncer = new Thread(this::run, "indexfs-wal-sync-" + slot);
      syncer.setDaemon(true);
      syncer.start();
    } else {
      syncer = null;
    }
  }

  /** Call right after a WAL write: every ticket at or below the synced mark is durable. */
  public long ticket() {
    return written.incrementAndGet();
  }

  /** True when every write is made durable by group commit (wal.sync=true). */
  public boolean syncs() {
    return sync;
  }

  /** indexfs.wal.async-window-ms: how long an async subtree's acknowledged write may stay unsynced. */
  public void asyncWindowMs(long ms) {
    windowNanos = Math.max(1, ms) * 1_000_000L;
  }

  /**
   * The write with {@code ticket} was answered before its fsync (an async subtree, issue 18): the
   * syncer fsyncs it within the window even if no sync write comes to carry it. Nobody waits.
   */
  public void syncWithin(long ticket) {
    if (!sync) {
      return;
    }
    asyncWrites.incrementAndGet();
    asyncWritten.accumulateAndGet(ticket, Math::max);
    asyncSince.compareAndSet(0, System.nanoTime());
    if (sleeping) {
      LockSupport.unpark(syncer);
    }
  }

  /**
   * Runs {@code then} once the write with {@code ticket} is durable (with null), or failed to
   * become durable (with the error). It runs on the syncer thread, or at once on this thread.
   */
  public void whenDurable(long ticket, Consumer<IOException> then) {
    whenDurable(ticket, null, then);
  }

  /** As above, from a call inside {@code read} (null: none), whose end wakes the syncer instead. */
  public void whenDurable(long ticket, Read read, Consumer<IOException> then) {
    if (!sync || ticket <= synced) {
      then.accept(null);
      return;
    }
    queue.add(new Pending(ticket, then));
    if (read != null && read.open) {
      read.wrote = true;
    } else if (sleeping) {
      LockSupport.unpark(syncer);
    }
  }

  /**
   * The calling I/O thread starts running the calls of one read: writes they leave wait for
   * {@link #readComplete} to wake the syncer, so one fsync covers them all.
   */
  public void readStarted(Read read) {
    if (!read.open) {
      read.open = true;
      if (sync) {
        openReads.incrementAndGet();
      }
    }
  }

  /** The read's calls have run: wakes the syncer if any of them wrote. Safe to call more than once. */
  public void readComplete(Read read) {
    if (!sync) {
      read.open = false;
      return;
    }
    if (read.open) {
      read.open = false;
      openReads.decrementAndGet();
    }
    boolean wrote = read.wrote;
    read.wrote = false;
    if ((wrote && sleeping) || awaitingReads) {
      LockSupport.unpark(syncer);
    }
  }

  /** Blocks until the write with {@code ticket} is durable (multi-step operations that must not run ahead). */
  public void awaitDurable(long ticket) throws IOException {
    if (!sync || ticket <= synced) {
      return;
    }
    org.indexfs.server.Blocking.check("wait for a WAL sync");
    CompletableFuture<Void> done = new CompletableFuture<>();
    whenDurable(ticket, failure -> {
      if (failure == null) {
        done.complete(null);
      } else {
        done.completeExceptionally(failure);
      }
    });
    if (sleeping) {
      LockSupport.unpark(syncer); // even inside a read: this thread waits here, it will not end the read
    }
    try {
      done.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted waiting for WAL sync");
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
    }
  }

  private void run() {
    List<Pending> carried = new ArrayList<>();
    List<Pending> due = new ArrayList<>();
    while (running) {
      if (queue.isEmpty() && carried.isEmpty()) {
        long since = asyncSince.get();
        long wait = since == 0 ? Long.MAX_VALUE : since + windowNanos - System.nanoTime();
        if (wait > 0) {
          sleeping = true;
          if (queue.isEmpty() && running && (since != 0 || asyncSince.get() == 0)) {
            if (since == 0) {
              LockSupport.park(this);
            } else {
              LockSupport.parkNanos(this, wait);
            }
          }
          sleeping = false;
          continue;
        }
        // The oldest async write's window is up: sync now, though nobody waits.
      }
      awaitOpenReads();
      long since = asyncSince.get();
      long target = written.get();
      IOException failure = null;
      try {
        store.syncWal();
      } catch (IOException e) {
        failure = e;
        LOG.error("WAL sync failed; {} mutations are answered with the error", queue.size() + carried.size(), e);
      }
      if (failure == null) {
        synced = target;
        syncs.incrementAndGet();
        if (since != 0) {
          maxAsyncLagNanos.accumulateAndGet(System.nanoTime() - since, Math::max);
          if (asyncWritten.get() <= target) {
            asyncSince.compareAndSet(since, 0);
          }
        }
      }
      for (Pending p; (p = queue.poll()) != null; ) {
        carried.add(p);
      }
      for (Pending p : carried) {
        if (failure != null || p.ticket() <= target) {
          due.add(p);
        }
      }
      carried.removeAll(due);
      covered.addAndGet(due.size());
      for (Pending p : due) {
        try {
          p.then().accept(failure);
        } catch (RuntimeException e) {
          LOG.error("A durable-write completion failed", e);
        }
      }
      due.clear();
    }
  }

  /**
   * Before an fsync: an I/O thread still running a read's calls is about to leave more writes;
   * waiting (briefly) for it lets this fsync carry them instead of the next.
   */
  private void awaitOpenReads() {
    if (openReads.get() == 0) {
      return;
    }
    long until = System.nanoTime() + READ_WAIT_NANOS;
    awaitingReads = true;
    try {
      for (long left; openReads.get() > 0 && (left = until - System.nanoTime()) > 0 && running; ) {
        LockSupport.parkNanos(this, left);
      }
    } finally {
      awaitingReads = false;
    }
  }

  /** True while the syncer is parked with nothing to do (tests start from this state). */
  boolean syncerAsleep() {
    return sleeping;
  }

  /** Number of fsyncs performed; with concurrent writers it stays below the number of writes. */
  public long syncCount() {
    return syncs.get();
  }

  /** Writes answered before their fsync (async subtrees). */
  public long asyncWrites() {
    return asyncWrites.get();
  }

  /**
   * The longest time an async write stayed answered but not yet durable, from just after it reached
   * the WAL to the end of the fsync that covered it: what a machine crash could have lost, in time.
   */
  public long maxAsyncLagMillis() {
    return maxAsyncLagNanos.get() / 1_000_000L;
  }

  /** Completions run after fsyncs (their mean per sync is the group-commit size). */
  public long completions() {
    return covered.get();
  }

  @Override
  public void close() {
    running = false;
    if (syncer != null) {
      LockSupport.unpark(syncer);
      try {
        syncer.join(10_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      // Whatever is still waiting is answered: a final sync covers it, or it gets the error.
      IOException failure = null;
      try {
        store.syncWal();
      } catch (IOException e) {
        failure = e;
      }
      for (Pending p; (p = queue.poll()) != null; ) {
        p.then().accept(failure);
      }
    }
  }
}
