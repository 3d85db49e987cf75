package org.indexfs.server.op;

import java.io.IOException;
import java.util.List;
import org.indexfs.common.schema.Bytes;
import org.indexfs.common.schema.EntryKey;
import org.indexfs.common.schema.Inode;
import org.indexfs.server.store.PrefixIterator;
import org.rocksdb.RocksIterator;

/**
 * Depth-first walk of the entries below a directory on this slot (recursive delete checks,
 * content summary). A directory met on the way whose entries live on another slot is visited but
 * not entered: it is added to {@code remote}, for the caller to ask its home after releasing the
 * namespace lock (a remote call is never made under it).
 */
final class SubtreeWalk {
  private SubtreeWalk() {}

  interface Visitor {
    /** Called for each entry below the start; {@code path} is its full path. */
    void visit(String path, Inode inode) throws IOException;
  }

  /** A directory below the start with entries on another slot: its home, or one of its split partitions. */
  record RemoteDirectory(String path, Inode inode, int slot) {}

  static void walk(OpContext ctx, String dirPath, long dirId, Visitor visitor, List<RemoteDirectory> remote)
      throws IOException {
    byte[] prefix = EntryKey.prefix(dirId);
    String base = dirPath.equals("/") ? "" : dirPath;
    try (PrefixIterator bounded = ctx.ns().store().prefixIterator(ctx.ns().store().entries(), prefix)) {
      RocksIterator it = bounded.it();
      for (it.seek(prefix); it.isValid() && Bytes.startsWith(it.key(), prefix); it.next()) {
        String path = base + "/" + EntryKey.decode(it.key()).name();
        Inode child = Inode.decode(it.value());
        visitor.visit(path, child);
        if (child.isDirectory()) {
          if (child.zerothSlot == ctx.ns().slot()) {
            walk(ctx, path, child.inodeId, visitor, remote);
            for (int slot : ctx.partitions().childSlots(child.inodeId, child.zerothSlot)) {
              remote.add(new RemoteDirectory(path, child, slot));
            }
          } else {
            remote.add(new RemoteDirectory(path, child, child.zerothSlot));
          }
        }
      }
    }
  }

  /** True when this slot holds no entry of directory {@code dirId}. */
  static boolean isEmpty(OpContext ctx, long dirId) {
    byte[] prefix = EntryKey.prefix(dirId);
    try (PrefixIterator bounded = ctx.ns().store().prefixIterator(ctx.ns().store().entries(), prefix)) {
      RocksIterator it = bounded.it();
      it.seek(prefix);
      return !(it.isValid() && Bytes.startsWith(it.key(), prefix));
    }
  }
}
