package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.InodeIds;
import org.indexfs.common.Permission;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Caller;
import org.indexfs.server.ns.Namespace;
import org.indexfs.server.ns.ResolvedPath;
import org.rocksdb.WriteBatch;

/** Writing entries found by a resolved path: the building blocks several operations share. */
final class Entries {
  private Entries() {}

  /** Id of the directory holding the entry at {@code depth} (the root has none). */
  static long parentIdAt(ResolvedPath p, int depth) {
    return depth == 0 ? InodeIds.NO_PARENT : p.inodeAt(depth - 1).inodeId;
  }

  static String nameAt(ResolvedPath p, int depth) {
    return depth == 0 ? "" : p.names().get(depth - 1);
  }

  /** Rewrites the entry at {@code depth} of {@code p} with {@code inode}; it must live on this slot. */
  static void put(Namespace ns, WriteBatch batch, ResolvedPath p, int depth, Inode inode) throws IOException {
    if (!p.entryIsLocal(depth)) {
      throw new IllegalStateException("Entry at depth " + depth + " of " + p.path() + " is not on slot " + ns.slot());
    }
    ns.putEntry(batch, parentIdAt(p, depth), nameAt(p, depth), inode);
  }

  /**
   * A directory's mtime moves when an entry is added or removed in it, as in HDFS. When the
   * directory's own entry lives on another slot (its home differs from its parent's partition, or
   * this is a split partition of it), {@code remote} tells that slot once the batch is committed;
   * without one (null) the mtime there stays as it is.
   */
  static void touchDirectory(OpContext ctx, WriteBatch batch, ResolvedPath p, int depth, long now,
      DirectoryTouches remote) throws IOException {
    if (!p.entryIsLocal(depth)) {
      if (remote != null) {
        remote.add(ctx, p, depth, now);
      }
      return;
    }
    touchDirectory(ctx.ns(), batch, p, depth, now);
  }

  /** As above, for an entry stored on this slot only. */
  static void touchDirectory(Namespace ns, WriteBatch batch, ResolvedPath p, int depth, long now)
      throws IOException {
    if (!p.entryIsLocal(depth)) {
      return;
    }
    Inode dir = p.inodeAt(depth).copy();
    dir.mtime = now;
    ns.putTimes(batch, parentIdAt(p, depth), nameAt(p, depth), dir);
  }

  static Inode newDirectory(Namespace ns, Caller caller, Inode parent, int permission, long now, int home)
      throws IOException {
    Inode dir = new Inode();
    dir.type = Inode.TYPE_DIRECTORY;
    dir.inodeId = ns.newInodeId();
    dir.permission = permission & Permission.MASK;
    dir.ownerId = ns.principals().idOf(caller.getUser());
    // BSD rule, as HDFS: a new entry takes its directory's group.
    dir.groupId = parent.groupId;
    dir.mtime = dir.atime = now;
    dir.zerothSlot = home;
    return dir;
  }

  /**
   * Creates the missing directories of {@code p} from the deepest existing one down to depth
   * {@code upTo} (inclusive) and returns the deepest. Implicit parents get u+wx like HDFS.
   */
  static Inode createDirectories(OpContext ctx, WriteBatch batch, Caller caller, ResolvedPath p, int upTo,
      int finalPermission, boolean finalIsRequested, long now, DirectoryTouches touches) throws IOException {
    return createDirectories(ctx, batch, caller, p, upTo, finalPermission, finalIsRequested, now, ctx.ns().slot(),
        touches);
  }

  /** As above; the deepest new directory gets home slot {@code finalHome}, the others this slot. */
  static Inode createDirectories(OpContext ctx, WriteBatch batch, Caller caller, ResolvedPath p, int upTo,
      int finalPermission, boolean finalIsRequested, long now, int finalHome, DirectoryTouches touches)
      throws IOException {
    Namespace ns = ctx.ns();
    int first = p.existingCount();
    Inode parent = p.inodeAt(first - 1);
    if (!parent.isDirectory()) {
      throw IndexFsException.parentNotDirectory(p.pathAt(first - 1));
    }
    if (first <= upTo) {
      touchDirectory(ctx, batch, p, first - 1, now, touches);
    }
    for (int depth = first; depth <= upTo; depth++) {
      boolean isFinal = depth == upTo && finalIsRequested;
      int perm = isFinal ? finalPermission : Permission.withImplicitUserWriteExecute(finalPermission);
      Inode dir = newDirectory(ns, caller, parent, perm, now, depth == upTo ? finalHome : ns.slot());
      ns.putEntry(batch, parent.inodeId, p.names().get(depth - 1), dir);
      parent = dir;
    }
    return parent;
  }
}
