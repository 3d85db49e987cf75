package org.indexfs.server.snapshot;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.server.store.MetadataStore;
import org.rocksdb.Snapshot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The slot's side of a snapshot's barrier (issue 17). A snapshot must show every slot at one
 * instant, so that no rename across slots is seen half done: the coordinator closes every slot's
 * gate (each waits until the client mutations it admitted have ended, their calls to other slots
 * included — those pass a closed gate, being parts of admitted mutations), then takes a RocksDB
 * snapshot on every slot, then reopens them. Nothing changes anywhere between the last close and
 * the first reopen, so the RocksDB snapshots agree; the gates are shut for milliseconds, and the
 * subtree is copied afterwards from the RocksDB snapshots while clients go on.
 *
 * <p>A mutation meeting a closed gate is told to retry ({@code STALE_RESOLUTION}; clients back off
 * and resend): it never waits on an I/O thread. A gate closes for one token at a time and reopens
 * by itself after {@link #HOLD_LIMIT_MS} (a coordinator that died); a RocksDB snapshot is dropped
 * by its coordinator or after {@link #KEEP_LIMIT_MS}.
 */
public final class SnapshotGate {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotGate.class);
  static final long HOLD_LIMIT_MS = 30_000;
  static final long KEEP_LIMIT_MS = 3_600_000;
  private static final long DRAIN_LIMIT_MS = 10_000;

  private final org.indexfs.server.ns.Namespace ns;

  private MetadataStore store() {
    return ns.store();
  }
  private final AtomicInteger inFlight = new AtomicInteger();
  private volatile long closedBy;
  private volatile long closedAt;
  private final Map<Long, Held> held = new ConcurrentHashMap<>();

  private record Held(Snapshot snapshot, long takenAt) {}

  /** The directories with snapshots, which renames may not move (learned at HOLD, while closed). */
  private final PinnedPaths pinned = new PinnedPaths();

  public PinnedPaths pinned() {
    return pinned;
  }

  public SnapshotGate(org.indexfs.server.ns.Namespace ns) {
    this.ns = ns;
  }

  /** A client mutation begins: refused (to be retried) while the gate is closed. Pair with {@link #exit}. */
  public void enter() throws IndexFsException {
    if (!tryEnter()) {
      throw new IndexFsException(Code.STALE_RESOLUTION, "A snapshot is being taken; retry");
    }
  }

  /** As {@link #enter} for the server's own changes (a split): false instead of an error. */
  public boolean tryEnter() {
    if (isClosed()) {
      return false;
    }
    inFlight.incrementAndGet();
    if (isClosed()) {
      inFlight.decrementAndGet();
      return false;
    }
    return true;
  }

  public void exit() {
    inFlight.decrementAndGet();
  }

  private boolean isClosed() {
    long by = closedBy;
    if (by != 0 && System.nanoTime() - closedAt > TimeUnit.MILLISECONDS.toNanos(HOLD_LIMIT_MS)) {
      LOG.warn("Snapshot barrier {} held this slot's gate for {} ms: reopened", by, HOLD_LIMIT_MS);
      open(by);
      return false;
    }
    return by != 0;
  }

  /** Closes the gate for {@code token} and waits for the mutations running here to end. */
  public synchronized void hold(long token) throws IndexFsException, InterruptedException {
    if (closedBy != 0 && closedBy != token && !isExpired()) {
      throw new IndexFsException(Code.SNAPSHOT, "Another snapshot is being taken; retry later");
    }
    closedAt = System.nanoTime();
    closedBy = token;
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_LIMIT_MS);
    while (inFlight.get() > 0) {
      if (System.nanoTime() - deadline > 0) {
        closedBy = 0;
        throw new IndexFsException(Code.SNAPSHOT, "Mutations on slot did not end within " + DRAIN_LIMIT_MS
            + " ms; snapshot not taken");
      }
      Thread.sleep(0, 200_000);
    }
  }

  private boolean isExpired() {
    return System.nanoTime() - closedAt > TimeUnit.MILLISECONDS.toNanos(HOLD_LIMIT_MS);
  }

  /** Keeps a RocksDB snapshot of this slot for {@code token}; the gate must still be closed by it. */
  public synchronized void take(long token) throws IndexFsException {
    if (closedBy != token) {
      throw new IndexFsException(Code.SNAPSHOT, "The snapshot barrier on this slot was lost (reopened or failed"
          + " over); snapshot not taken");
    }
    dropExpired();
    held.computeIfAbsent(token, t -> new Held(store().snapshot(), System.nanoTime()));
  }

  public synchronized void open(long token) {
    if (closedBy == token) {
      closedBy = 0;
    }
  }

  /** The RocksDB snapshot kept for {@code token}, or an error if there is none (released, or another server). */
  public Snapshot snapshot(long token) throws IndexFsException {
    Held h = held.get(token);
    if (h == null) {
      throw new IndexFsException(Code.SNAPSHOT, "No snapshot barrier " + token + " on this slot");
    }
    return h.snapshot();
  }

  public void release(long token) {
    Held h = held.remove(token);
    if (h != null) {
      store().releaseSnapshot(h.snapshot());
    }
  }

  private void dropExpired() {
    long now = System.nanoTime();
    held.forEach((token, h) -> {
      if (now - h.takenAt() > TimeUnit.MILLISECONDS.toNanos(KEEP_LIMIT_MS)) {
        LOG.warn("Snapshot barrier {} kept its RocksDB snapshot for an hour: released", token);
        release(token);
      }
    });
  }
}
