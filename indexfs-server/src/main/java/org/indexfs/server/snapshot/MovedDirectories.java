package org.indexfs.server.snapshot;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.indexfs.proto.Request;
import org.indexfs.proto.SnapshotPage;
import org.indexfs.proto.SnapshotRequest;
import org.indexfs.server.op.OpContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Snapshottable directories follow the renames that move them, as on HDFS (where the directory is
 * an inode and its path is wherever it is now). The store keeps no parent pointer, so a path cannot
 * be computed from an id: instead every slot knows every snapshottable directory's path
 * ({@link PinnedPaths#track}, told at allowSnapshot and disallowSnapshot), a rename at or above one
 * tells every slot where it went (MOVED, from {@link GatedOp} once the rename has succeeded), and
 * each slot rewrites, by prefix, its copy and the records of the directories homed on it
 * ({@code snap.d}, which getSnapshottableDirListing and allowSnapshot's nesting check read).
 */
final class MovedDirectories {
  private static final Logger LOG = LoggerFactory.getLogger(MovedDirectories.class);

  private final OpContext ctx;
  private final SnapshotGate gate;
  private final SnapshotTable table;

  MovedDirectories(OpContext ctx, SnapshotGate gate, SnapshotTable table) {
    this.ctx = ctx;
    this.gate = gate;
    this.table = table;
  }

  /** Every slot learns that {@code dirId}, homed on {@code home}, is snapshottable at {@code path} (or no longer). */
  void track(long dirId, String path, int home, boolean on) {
    PinnedPaths.Pinned p = new PinnedPaths.Pinned(path, dirId, home);
    for (int s = 0; s < ctx.peers().slotCount(); s++) {
      try {
        if (s == ctx.ns().slot()) {
          gate.pinned().track(p, on, false);
        } else {
          ctx.peers().call(s, Request.newBuilder().setSnapshot(SnapshotRequest.newBuilder()
              .setAction(SnapshotRequest.Action.TRACK).setDirId(dirId).setPath(path).setHomeSlot(home).setOn(on)));
        }
      } catch (IOException e) {
        LOG.warn("Slot {} not told that {} is {}snapshottable (it learns at its next start): {}", s, path,
            on ? "" : "no longer ", e.toString());
      }
    }
  }

  /** Every slot hears that {@code src} is now {@code dst}. */
  void moved(String src, String dst) {
    for (int s = 0; s < ctx.peers().slotCount(); s++) {
      try {
        if (s == ctx.ns().slot()) {
          movedHere(src, dst);
        } else {
          ctx.peers().call(s, Request.newBuilder().setSnapshot(SnapshotRequest.newBuilder()
              .setAction(SnapshotRequest.Action.MOVED).setPath(src).setNewName(dst)));
        }
      } catch (IOException e) {
        LOG.warn("Slot {} not told that {} moved to {}: a snapshottable directory below it is listed at its old"
            + " path there until its next snapshot: {}", s, src, dst, e.toString());
      }
    }
  }

  /** This slot's part of a MOVED: its copy of the paths and the records of directories homed here. */
  void movedHere(String src, String dst) throws IOException {
    gate.pinned().moved(src, dst);
    List<String[]> follow = new ArrayList<>();
    for (String[] d : table.registered()) {
      String to = PinnedPaths.movedPath(d[1], src, dst);
      if (to != null) {
        follow.add(new String[] {d[0], to});
      }
    }
    if (follow.isEmpty()) {
      return;
    }
    ctx.ns().mutateLocked(m -> {
      for (String[] d : follow) {
        table.register(m.batch(), Long.parseLong(d[0]), d[1]);
      }
      return null;
    });
  }

  /** Every snapshottable directory of the cluster (a slot learning them at its start). */
  List<PinnedPaths.Pinned> all() throws IOException {
    List<PinnedPaths.Pinned> out = new ArrayList<>();
    for (int s = 0; s < ctx.peers().slotCount(); s++) {
      SnapshotPage.Builder page = SnapshotPage.newBuilder();
      if (s == ctx.ns().slot()) {
        registered(page);
      } else {
        page.mergeFrom(ctx.peers().call(s, Request.newBuilder().setSnapshot(SnapshotRequest.newBuilder()
            .setAction(SnapshotRequest.Action.REGISTERED))).getSnapshotPage());
      }
      for (int i = 0; i < page.getPathsCount() && i < page.getDirIdsCount(); i++) {
        out.add(new PinnedPaths.Pinned(page.getPaths(i), page.getDirIds(i), s));
      }
    }
    return out;
  }

  /** REGISTERED: the snapshottable directories homed here, paths and ids. */
  void registered(SnapshotPage.Builder page) throws IOException {
    for (String[] d : live()) {
      page.addPaths(d[1]).addDirIds(Long.parseLong(d[0]));
    }
  }

  /**
   * The snapshottable directories homed here that still exist: one deleted or replaced by a rename
   * while it had no snapshot leaves its record behind (its partition record, here, goes), and HDFS
   * no longer lists it.
   */
  List<String[]> live() throws IOException {
    List<String[]> out = new ArrayList<>();
    for (String[] d : table.registered()) {
      if (ctx.ns().partition(Long.parseLong(d[0])) != null) {
        out.add(d);
      }
    }
    return out;
  }
}
