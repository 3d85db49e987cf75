package org.indexfs.server.snapshot;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The snapshottable directories of the whole cluster that have snapshots, as this slot knows them:
 * HDFS refuses to rename such a directory or any directory above it
 * (FSDirRenameOp.validateRenameSource → FSDirSnapshotOp.checkSnapshot), so their paths never change
 * while they have snapshots. Every slot learns one when a snapshot of it is taken (the barrier's HOLD
 * carries it, while no mutation runs there) and forgets it when its last snapshot is deleted; a slot
 * that starts asks every home, from its first rename, on a thread of its own (again at most every
 * {@link #RETRY_MS} while a home does not answer; renames go on with what is known). With none
 * known a rename pays two volatile reads; a refusal is first confirmed with the directory's home (a
 * forgotten one is dropped).
 */
public final class PinnedPaths {
  private static final Logger LOG = LoggerFactory.getLogger(PinnedPaths.class);

  /** A snapshottable directory with snapshots: its path, its id and its home slot. */
  record Pinned(String path, long dirId, int home) {}

  /** What the snapshot operation answers for the whole cluster. */
  interface Homes {
    List<Pinned> all() throws IOException;

    boolean hasSnapshots(Pinned p) throws IOException;

    /** Every snapshottable directory of the cluster, snapshots or not. */
    List<Pinned> snapshottable() throws IOException;

    /** Tells every slot that {@code src} is now at {@code dst} (a MOVED request). */
    void moved(String src, String dst);
  }

  private static final long RETRY_MS = 30_000;

  private volatile List<Pinned> pinned = List.of();
  /**
   * Every snapshottable directory (with snapshots or not): HDFS lets a rename move one without
   * snapshots, and lists and checks it at its new path; a rename of it or above it tells every
   * slot ({@link #followRename}). Learned at allowSnapshot (TRACK to every slot) and at start.
   */
  private volatile List<Pinned> snapshottable = List.of();
  private volatile boolean loaded;
  private final java.util.concurrent.locks.ReentrantLock loading = new java.util.concurrent.locks.ReentrantLock();
  private volatile long lastTry;
  private volatile Homes homes;

  void useHomes(Homes homes) {
    this.homes = homes;
  }

  synchronized void add(Pinned p) {
    if (!pinned.contains(p)) {
      List<Pinned> next = new ArrayList<>(pinned);
      next.removeIf(x -> x.dirId() == p.dirId());
      next.add(p);
      pinned = List.copyOf(next);
    }
  }

  synchronized void remove(long dirId) {
    List<Pinned> next = new ArrayList<>(pinned);
    if (next.removeIf(x -> x.dirId() == dirId)) {
      pinned = List.copyOf(next);
    }
  }

  /** {@code p} became snapshottable ({@code on}) or no longer is; {@code ifAbsent}: only if not known yet. */
  synchronized void track(Pinned p, boolean on, boolean ifAbsent) {
    List<Pinned> next = new ArrayList<>(snapshottable);
    if (ifAbsent && next.stream().anyMatch(x -> x.dirId() == p.dirId())) {
      return;
    }
    next.removeIf(x -> x.dirId() == p.dirId());
    if (on) {
      next.add(p);
    }
    snapshottable = List.copyOf(next);
  }

  /** A rename moved {@code src} to {@code dst}: the snapshottable directories at or below it follow. */
  synchronized void moved(String src, String dst) {
    List<Pinned> next = new ArrayList<>();
    for (Pinned p : snapshottable) {
      String to = movedPath(p.path(), src, dst);
      next.add(to == null ? p : new Pinned(to, p.dirId(), p.home()));
    }
    snapshottable = List.copyOf(next);
  }

  /** {@code path} after {@code src} moved to {@code dst}; null if it is neither {@code src} nor below it. */
  static String movedPath(String path, String src, String dst) {
    if (path.equals(src)) {
      return dst;
    }
    return path.startsWith(src.equals("/") ? "/" : src + "/") ? dst + path.substring(src.length()) : null;
  }

  /**
   * After a rename that succeeded: if it moved a snapshottable directory (itself or an ancestor),
   * every slot is told where it went. With no snapshottable directory known, one volatile read.
   */
  public void followRename(org.indexfs.proto.RenameRequest req, org.indexfs.proto.Response.Builder answer) {
    List<Pinned> now = snapshottable;
    if (now.isEmpty() || !answer.hasBool() || !answer.getBool().getValue()) {
      return;
    }
    String src = req.getSrc();
    if (now.stream().noneMatch(p -> movedPath(p.path(), src, src) != null)) {
      return;
    }
    String to = answer.getBool().getRenamedTo();
    if (to.isEmpty() && req.getMode() == org.indexfs.proto.RenameRequest.Mode.EXACT) {
      to = req.getDst();
    }
    Homes h = homes;
    if (to.isEmpty() || h == null) {
      // A two-phase rename whose landing answer was lost: "into" or not is not known here.
      LOG.warn("Rename of {} moved a snapshottable directory to a path not known here: it is listed at its old"
          + " path until its next snapshot", src);
      return;
    }
    if (!to.equals(src)) {
      h.moved(src, to);
    }
  }

  /** Refuses, in HDFS's words, a rename of {@code src} when it is or holds a directory with snapshots. */
  public void checkRename(String src) throws IOException {
    if (!loaded) {
      load();
    }
    List<Pinned> now = pinned;
    if (now.isEmpty()) {
      return;
    }
    String below = src.equals("/") ? "/" : src + "/";
    for (Pinned p : now) {
      if (!p.path().equals(src) && !p.path().startsWith(below)) {
        continue;
      }
      if (!confirmed(p)) {
        remove(p.dirId()); // its last snapshot went while this slot did not hear of it
        continue;
      }
      throw new IndexFsException(Code.SNAPSHOT, "The directory " + p.path() + " cannot be deleted since "
          + p.path() + " is snapshottable and already has snapshots");
    }
  }

  /** Whether the home still says {@code p} has snapshots; a home that does not answer: as if it did. */
  private boolean confirmed(Pinned p) {
    Homes h = homes;
    try {
      return h == null || h.hasSnapshots(p);
    } catch (IOException | RuntimeException e) {
      return true;
    }
  }

  /**
   * Asks every home, off the rename's thread (a home may be down or restarting: a rename never waits
   * for it); renames go on meanwhile with what this slot knows (learned at HOLD).
   */
  private void load() {
    Homes h = homes;
    if (h == null || System.currentTimeMillis() - lastTry < RETRY_MS || !loading.tryLock()) {
      return;
    }
    try {
      if (loaded || System.currentTimeMillis() - lastTry < RETRY_MS) {
        return;
      }
      lastTry = System.currentTimeMillis();
      Thread asker = new Thread(() -> ask(h), "pinned-paths-load");
      asker.setDaemon(true);
      asker.start();
    } finally {
      loading.unlock();
    }
  }

  private void ask(Homes h) {
    try {
      for (Pinned p : h.all()) {
        add(p);
      }
      for (Pinned p : h.snapshottable()) {
        track(p, true, true); // a TRACK or MOVED heard meanwhile is newer than this answer
      }
      loaded = true;
    } catch (IOException | RuntimeException e) {
      LOG.warn("Could not learn the directories with snapshots from every slot (asked again later): {}", e.toString());
    }
  }
}
