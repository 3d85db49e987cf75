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
 * <p>With {@code sync=false} completions run at once on the caller's thread.
 */
public final class GroupCommit implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(GroupCommit.class);

  private record Pending(long ticket, Consumer<IOException> then) {}

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

  /**
   * Runs {@code then} once the write with {@code ticket} is durable (with null), or failed to
   * become durable (with the error). It runs on the syncer thread, or at once on this thread.
   */
  public void whenDurable(long ticket, Consumer<IOException> then) {
    if (!sync || ticket <= synced) {
      then.accept(null);
      return;
    }
    queue.add(new Pending(ticket, then));
    if (sleeping) {
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
        sleeping = true;
        if (queue.isEmpty() && running) {
          LockSupport.park(this);
        }
        sleeping = false;
        continue;
      }
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

  /** Number of fsyncs performed; with concurrent writers it stays below the number of writes. */
  public long syncCount() {
    return syncs.get();
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
