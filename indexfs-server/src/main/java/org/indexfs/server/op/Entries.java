package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.InodeIds;
import org.indexfs.common.Permission;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Caller;
import org.indexfs.server.acl.AclModel;
import org.indexfs.server.acl.CreateModes;
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

  static Inode newDirectory(Namespace ns, Caller caller, Inode parent, CreateModes modes, long now, int home)
      throws IOException {
    Inode dir = new Inode();
    dir.type = Inode.TYPE_DIRECTORY;
    dir.inodeId = ns.newInodeId();
    inherit(ns, dir, parent, modes);
    dir.ownerId = ns.principals().idOf(caller.getUser());
    // BSD rule, as HDFS: a new entry takes its directory's group.
    dir.groupId = parent.groupId;
    dir.mtime = dir.atime = now;
    dir.zerothSlot = home;
    return dir;
  }

  /**
   * A new entry's permission and ACL: the parent's default ACL, if it has one, handed down as
   * HDFS does ({@link CreateModes#under}).
   */
  static void inherit(Namespace ns, Inode entry, Inode parent, CreateModes modes) throws IOException {
    byte[] parentAcl = parent.has(Inode.FLAG_ACL) && parent.acl == null ? ns.attrs().acl(parent.inodeId) : parent.acl;
    AclModel.Applied applied = modes.under(parent, entry.isDirectory(), parentAcl);
    entry.permission = applied.permission() & Permission.MASK;
    entry.acl = applied.acl();
    if (entry.acl != null) {
      entry.flags |= Inode.FLAG_ACL;
    }
  }

  /** Writes a new entry, with its ACL row when it inherited one. */
  static void putNew(Namespace ns, WriteBatch batch, long parentId, String name, Inode entry) throws IOException {
    ns.putEntry(batch, parentId, name, entry);
    if (entry.acl != null) {
      ns.attrs().putAcl(batch, entry.inodeId, entry.acl);
    }
  }

  /**
   * Creates the missing directories of {@code p} from the deepest existing one down to depth
   * {@code upTo} (inclusive) and returns the deepest. Implicit parents get u+wx like HDFS.
   */
  static Inode createDirectories(OpContext ctx, WriteBatch batch, Caller caller, ResolvedPath p, int upTo,
      CreateModes finalModes, boolean finalIsRequested, long now, DirectoryTouches touches) throws IOException {
    return createDirectories(ctx, batch, caller, p, upTo, finalModes, finalIsRequested, now, ctx.ns().slot(),
        touches);
  }

  /** As above; the deepest new directory gets home slot {@code finalHome}, the others this slot. */
  static Inode createDirectories(OpContext ctx, WriteBatch batch, Caller caller, ResolvedPath p, int upTo,
      CreateModes finalModes, boolean finalIsRequested, long now, int finalHome, DirectoryTouches touches)
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
      // FSDirMkdirOp.addImplicitUwx: the masked mode gains u+wx, the unmasked one stays as it was.
      CreateModes modes = isFinal ? finalModes : new CreateModes(
          Permission.withImplicitUserWriteExecute(finalModes.masked()), finalModes.unmasked());
      Inode dir = newDirectory(ns, caller, parent, modes, now, depth == upTo ? finalHome : ns.slot());
      putNew(ns, batch, parent.inodeId, p.names().get(depth - 1), dir);
      parent = dir;
    }
    return parent;
  }
}
