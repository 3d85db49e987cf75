package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.common.schema.Bytes;
import org.indexfs.common.schema.EntryKey;
import org.indexfs.common.schema.Inode;
import org.rocksdb.RocksIterator;

/** Depth-first walk of the entries below a directory (recursive delete checks, content summary). */
final class SubtreeWalk {
  private SubtreeWalk() {}

  interface Visitor {
    /** Called for each entry below the start; {@code path} is its full path. */
    void visit(String path, Inode inode) throws IOException;
  }

  static void walk(OpContext ctx, String dirPath, long dirId, Visitor visitor) throws IOException {
    byte[] prefix = EntryKey.prefix(dirId);
    String base = dirPath.equals("/") ? "" : dirPath;
    try (RocksIterator it = ctx.ns().store().iterator(ctx.ns().store().entries(), null)) {
      for (it.seek(prefix); it.isValid() && Bytes.startsWith(it.key(), prefix); it.next()) {
        String path = base + "/" + EntryKey.decode(it.key()).name();
        Inode child = Inode.decode(it.value());
        visitor.visit(path, child);
        if (child.isDirectory()) {
          walk(ctx, path, child.inodeId, visitor);
        }
      }
    }
  }

  static boolean isEmpty(OpContext ctx, long dirId) {
    byte[] prefix = EntryKey.prefix(dirId);
    try (RocksIterator it = ctx.ns().store().iterator(ctx.ns().store().entries(), null)) {
      it.seek(prefix);
      return !(it.isValid() && Bytes.startsWith(it.key(), prefix));
    }
  }
}
