package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Resolution;
import org.indexfs.server.lease.EntryLeases;
import org.indexfs.server.ns.ResolvedPath;

/**
 * Sets or clears a flag on a directory's entry (and so its partitions' copies) like a chmod:
 * clients' cached copies expire first, so every later walk sees it (a quota, a snapshottable
 * directory). Runs on the slot holding the entry.
 */
public final class DirectoryFlags {
  private DirectoryFlags() {}

  public static void set(OpContext ctx, Resolution known, String path, int flag, boolean on) throws IOException {
    long synced;
    try (EntryLeases.Revocation revoked = DirectoryLeases.revoke(ctx, known, path)) {
      synced = ctx.ns().mutate(batch -> {
        ResolvedPath p = ctx.resolver().resolve(known, path);
        if (p.last() == null || !p.last().isDirectory()) {
          return -1L;
        }
        Inode updated = p.last().copy();
        updated.flags = on ? updated.flags | flag : updated.flags & ~flag;
        Entries.put(ctx.ns(), batch, p, p.depth(), updated);
        return HomeChanges.record(ctx, batch, p, p.depth(), updated);
      });
    }
    HomeChanges.drive(ctx, synced);
  }
}
