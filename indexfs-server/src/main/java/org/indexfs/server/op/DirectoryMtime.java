package org.indexfs.server.op;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.schema.Inode;
import org.indexfs.common.schema.NameHash;
import org.indexfs.proto.PartitionRequest;
import org.indexfs.proto.Request;
import org.indexfs.server.ns.ResolvedPath;

/**
 * Raising a directory's mtime where its entry is stored: after a change in it made on another slot
 * ({@link DirectoryTouches}, {@link PartitionOp}'s TOUCH), and at its home for what HDFS counts as a
 * change of the directory itself without a new child (creating or deleting a snapshot of it).
 */
public final class DirectoryMtime {
  private DirectoryMtime() {}

  /** The slot holding the entry of the last directory of {@code p} (the root's: slot 0). */
  public static int entrySlot(OpContext ctx, ResolvedPath p) throws IOException {
    int depth = p.depth();
    return depth == 0 ? 0 : ctx.partitions().ownerOf(p.inodeAt(depth - 1), NameHash.of(Entries.nameAt(p, depth)));
  }

  /** Raises to {@code now} the mtime of the last directory of {@code p} (resolved at its home or anywhere). */
  public static void raise(OpContext ctx, ResolvedPath p, long now) throws IOException {
    int depth = p.depth();
    String name = Entries.nameAt(p, depth);
    int slot = entrySlot(ctx, p);
    PartitionRequest req = PartitionRequest.newBuilder().setAction(PartitionRequest.Action.TOUCH)
        .setDirId(p.inodeAt(depth).inodeId).setEntryParent(Entries.parentIdAt(p, depth)).setEntryName(name)
        .setMtime(now).setPath(p.pathAt(depth)).build();
    if (slot == ctx.ns().slot()) {
      touch(ctx, req);
    } else {
      ctx.peers().call(slot, Request.newBuilder().setPartition(req));
    }
  }

  /**
   * A TOUCH call: its own touch and the {@code more_touches} that rode with it
   * ({@link TouchCoalescer}). Every entry stored here and not moving is raised in one write (one
   * commit for the whole call); the others go the one-by-one way of {@link #touchOne}.
   */
  static void touch(OpContext ctx, PartitionRequest req) throws IOException {
    if (req.getMoreTouchesCount() == 0) {
      touchOne(ctx, req);
      return;
    }
    if (req.getMoreTouchesCount() >= TouchCoalescer.MAX_PER_CALL) {
      throw IndexFsException.invalidArgument("A TOUCH call carries at most "
          + TouchCoalescer.MAX_PER_CALL + " touches, not " + (req.getMoreTouchesCount() + 1));
    }
    List<PartitionRequest> all = new ArrayList<>(1 + req.getMoreTouchesCount());
    all.add(req.toBuilder().clearMoreTouches().build());
    for (PartitionRequest t : req.getMoreTouchesList()) {
      if (t.getAction() != PartitionRequest.Action.TOUCH || t.getMoreTouchesCount() > 0) {
        throw IndexFsException.invalidArgument("A TOUCH call carries only plain touches");
      }
      all.add(t);
    }
    List<PartitionRequest> left = ctx.ns().mutate(batch -> {
      List<PartitionRequest> rest = new ArrayList<>();
      Map<String, Long> written = new HashMap<>(); // the same entry twice: the larger
      for (PartitionRequest t : all) {
        Inode entry = ctx.ns().lookup(t.getEntryParent(), t.getEntryName());
        if (entry == null || ctx.splits().isFrozen(t.getEntryParent(), NameHash.of(t.getEntryName()))) {
          rest.add(t); // moved on or moving: followed one by one
          continue;
        }
        String key = t.getEntryParent() + "/" + t.getEntryName();
        long current = Math.max(entry.mtime, written.getOrDefault(key, Long.MIN_VALUE));
        if (entry.inodeId != t.getDirId() || current >= t.getMtime()) {
          continue;
        }
        Inode updated = entry.copy();
        updated.mtime = t.getMtime();
        ctx.ns().putEntry(batch, t.getEntryParent(), t.getEntryName(), updated);
        written.put(key, t.getMtime());
      }
      return rest;
    });
    for (PartitionRequest t : left) {
      touchOne(ctx, t);
    }
  }

  /**
   * Raises the mtime of a directory's entry stored here, after a change in the directory on
   * another slot ({@link DirectoryTouches}). An entry that moved on (a split of its parent) is
   * followed to the slot this one split it off to; one that is gone or was replaced is left alone.
   */
  private static void touchOne(OpContext ctx, PartitionRequest req) throws IOException {
    long hash = org.indexfs.common.schema.NameHash.of(req.getEntryName());
    for (int attempt = 0; ; attempt++) {
      Integer next = ctx.ns().mutate(batch -> {
        Inode entry = ctx.ns().lookup(req.getEntryParent(), req.getEntryName());
        if (entry == null) {
          Inode parent = ctx.ns().partition(req.getEntryParent());
          int owner = parent == null ? ctx.ns().slot() : ctx.partitions().ownerOf(parent, hash);
          return owner == ctx.ns().slot() ? null : owner;
        }
        if (entry.inodeId != req.getDirId() || entry.mtime >= req.getMtime()) {
          return null;
        }
        if (ctx.splits().isFrozen(req.getEntryParent(), hash)) {
          return FROZEN; // a split is moving the entry: write it once it has landed
        }
        Inode updated = entry.copy();
        updated.mtime = req.getMtime();
        ctx.ns().putEntry(batch, req.getEntryParent(), req.getEntryName(), updated);
        return null;
      });
      if (next == null) {
        return;
      }
      if (next.intValue() != FROZEN) {
        ctx.peers().call(next, Request.newBuilder().setPartition(req));
        return;
      }
      if (attempt >= 100) {
        throw new IOException("The entry of " + req.getPath() + " kept moving; its mtime stays");
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("Interrupted raising the mtime of " + req.getPath());
      }
    }
  }

  private static final int FROZEN = -1;
}
