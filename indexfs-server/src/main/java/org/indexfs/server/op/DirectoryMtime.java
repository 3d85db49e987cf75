package org.indexfs.server.op;

import java.io.IOException;
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
   * Raises the mtime of a directory's entry stored here, after a change in the directory on
   * another slot ({@link DirectoryTouches}). An entry that moved on (a split of its parent) is
   * followed to the slot this one split it off to; one that is gone or was replaced is left alone.
   */
  static void touch(OpContext ctx, PartitionRequest req) throws IOException {
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
