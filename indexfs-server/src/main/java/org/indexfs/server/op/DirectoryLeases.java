package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.proto.Resolution;
import org.indexfs.server.lease.EntryLeases;
import org.indexfs.server.lease.LeaseKey;
import org.indexfs.server.ns.ResolvedPath;

/**
 * The mutation side of directory-entry leases (IndexFS §II-B, DESIGN §5): before a directory's
 * entry changes (chmod, chown, rename, delete), stop granting leases on it and wait until every
 * lease already granted has expired, so no client resolves through a stale copy afterwards.
 */
final class DirectoryLeases {
  private DirectoryLeases() {}

  /**
   * Revokes the leases on {@code path}'s entry when it is a directory stored on this slot; null
   * otherwise. Close the result (try-with-resources) once the mutation is applied.
   */
  static EntryLeases.Revocation revoke(OpContext ctx, Resolution known, String path) throws IOException {
    ResolvedPath p = ctx.ns().read(none -> ctx.resolver().resolve(known, path));
    if (p.last() == null || !p.last().isDirectory() || !p.entryIsLocal(p.depth())) {
      return null;
    }
    return ctx.entryLeases().revoke(new LeaseKey(Entries.parentIdAt(p, p.depth()), Entries.nameAt(p, p.depth())));
  }
}
