package org.indexfs.server.snapshot;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.indexfs.common.IndexFsConfig;
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
 * and resend): it never waits on an I/O thread. A gate closes for one token at a time, and each
 * closing has a lifetime bounded from its first HOLD ({@link Limits#holdMs}): repeating the HOLD
 * does not extend it, a token whose barrier ended never closes the gate again, and a gate whose
 * barrier ran out (a coordinator that died, or one that misbehaves) stays open for as long again
 * before any barrier may close it (issue 31). RocksDB snapshots are kept for at most
 * {@link Limits#maxHeld} barriers at once, each dropped by its coordinator or after {@link Limits#keepMs}.
 */
public final class SnapshotGate {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotGate.class);
  private static final long DRAIN_LIMIT_MS = 10_000;
  /** Ended barriers remembered, so their tokens cannot close the gate again. */
  private static final int SPENT_REMEMBERED = 4_096;

  /**
   * How long one barrier may keep mutations out (from its first HOLD), how long a RocksDB snapshot is
   * kept for a coordinator that never releases it, and how many are kept at once.
   */
  public record Limits(long holdMs, long keepMs, int maxHeld) {
    public static final Limits DEFAULT = new Limits(IndexFsConfig.SNAPSHOT_HOLD_LIMIT_MS.defaultValue(),
        IndexFsConfig.SNAPSHOT_KEEP_LIMIT_MS.defaultValue(), IndexFsConfig.SNAPSHOT_MAX_HELD.defaultValue());

    public static Limits of(Map<String, String> conf) {
      return new Limits(IndexFsConfig.SNAPSHOT_HOLD_LIMIT_MS.get(conf), IndexFsConfig.SNAPSHOT_KEEP_LIMIT_MS.get(conf),
          IndexFsConfig.SNAPSHOT_MAX_HELD.get(conf));
    }
  }

  private final org.indexfs.server.ns.Namespace ns;
  private final Limits limits;

  private MetadataStore store() {
    return ns.store();
  }
  private final AtomicInteger inFlight = new AtomicInteger();
  /** The token of the barrier keeping the gate closed, or 0. Mutations read it and never wait for a lock. */
  private final AtomicLong closedBy = new AtomicLong();
  /** When {@link #closedBy} first closed the gate: its lifetime counts from here. */
  private volatile long closedAt;
  /** A barrier ran out: none may close the gate before this (nanoTime), while {@link #refusing}. */
  private volatile long refuseUntil;
  private volatile boolean refusing;
  private final Set<Long> spent = java.util.Collections.newSetFromMap(new LinkedHashMap<>() {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
      return size() > SPENT_REMEMBERED;
    }
  });
  private final Map<Long, Held> held = new ConcurrentHashMap<>();

  private record Held(Snapshot snapshot, long takenAt) {}

  /** The directories with snapshots, which renames may not move (learned at HOLD, while closed). */
  private final PinnedPaths pinned = new PinnedPaths();

  public PinnedPaths pinned() {
    return pinned;
  }

  public SnapshotGate(org.indexfs.server.ns.Namespace ns) {
    this(ns, Limits.DEFAULT);
  }

  public SnapshotGate(org.indexfs.server.ns.Namespace ns, Limits limits) {
    this.ns = ns;
    this.limits = limits;
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
    long by = closedBy.get();
    if (by != 0 && System.nanoTime() - closedAt > TimeUnit.MILLISECONDS.toNanos(limits.holdMs())) {
      ranOut(by);
      return false;
    }
    return by != 0;
  }

  /** Barrier {@code token} kept the gate closed for its whole lifetime: reopened, and none closes it for as long again. */
  private void ranOut(long token) {
    refuseUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(limits.holdMs());
    refusing = true;
    if (end(token)) {
      LOG.warn("Snapshot barrier {} held this slot's gate for {} ms: reopened, and no barrier may close it for as long",
          token, limits.holdMs());
    }
  }

  /** Ends barrier {@code token} if it still closes the gate; its token is spent either way. */
  private boolean end(long token) {
    synchronized (spent) {
      spent.add(token);
    }
    return closedBy.compareAndSet(token, 0);
  }

  private boolean spent(long token) {
    synchronized (spent) {
      return spent.contains(token);
    }
  }

  /**
   * Closes the gate for {@code token} and waits for the mutations running here to end. A HOLD
   * repeated by the same token waits again but keeps the gate closed only until the first one's
   * lifetime ends; a token whose barrier ended cannot close it again.
   */
  public synchronized void hold(long token) throws IndexFsException, InterruptedException {
    isClosed(); // a barrier past its lifetime ends here
    long by = closedBy.get();
    if (by != 0 && by != token) {
      throw new IndexFsException(Code.SNAPSHOT, "Another snapshot is being taken; retry later");
    }
    if (by == 0) {
      if (token == 0 || spent(token)) {
        throw new IndexFsException(Code.SNAPSHOT, "Snapshot barrier " + token + " already ended on this slot;"
            + " snapshot not taken");
      }
      if (refusing && System.nanoTime() - refuseUntil < 0) {
        throw new IndexFsException(Code.SNAPSHOT, "A snapshot barrier ran out of time on this slot recently;"
            + " retry later");
      }
      refusing = false;
      closedAt = System.nanoTime();
      closedBy.set(token);
    }
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_LIMIT_MS);
    while (inFlight.get() > 0) {
      if (!isClosed()) {
        throw new IndexFsException(Code.SNAPSHOT, "The snapshot barrier on this slot ran out of time; snapshot not taken");
      }
      if (System.nanoTime() - deadline > 0) {
        end(token);
        throw new IndexFsException(Code.SNAPSHOT, "Mutations on slot did not end within " + DRAIN_LIMIT_MS
            + " ms; snapshot not taken");
      }
      Thread.sleep(0, 200_000);
    }
  }

  /**
   * Keeps a RocksDB snapshot of this slot for {@code token}; the gate must still be closed by it,
   * and fewer than {@link Limits#maxHeld} kept for others.
   */
  public synchronized void take(long token) throws IndexFsException {
    if (!isClosed() || closedBy.get() != token) {
      throw new IndexFsException(Code.SNAPSHOT, "The snapshot barrier on this slot was lost (reopened or failed"
          + " over); snapshot not taken");
    }
    dropExpired();
    if (!held.containsKey(token) && held.size() >= limits.maxHeld()) {
      throw new IndexFsException(Code.SNAPSHOT, "This slot already keeps " + held.size() + " snapshot barriers ("
          + IndexFsConfig.SNAPSHOT_MAX_HELD.name() + "); retry later");
    }
    held.computeIfAbsent(token, t -> new Held(store().snapshot(), System.nanoTime()));
  }

  public synchronized void open(long token) {
    if (token != 0 && closedBy.get() == token) {
      end(token);
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
      if (now - h.takenAt() > TimeUnit.MILLISECONDS.toNanos(limits.keepMs())) {
        LOG.warn("Snapshot barrier {} kept its RocksDB snapshot for {} ms: released", token, limits.keepMs());
        release(token);
      }
    });
  }

  /** RocksDB snapshots kept for barriers now. */
  int heldCount() {
    return held.size();
  }
}
