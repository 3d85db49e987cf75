package org.indexfs.server.op;

import java.io.IOException;
import java.util.List;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.PathNames;
import org.indexfs.common.ReservedNames;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Code;
import org.indexfs.proto.Resolution;
import org.indexfs.server.ns.ResolvedPath;

/**
 * Names a create, mkdirs or rename may not make (issue 17). As on HDFS, {@code .snapshot} below a
 * snapshottable directory leads into its read-only snapshots (SnapshotAccessControlException);
 * anywhere else it is only a reserved name.
 */
final class SnapshotPaths {
  private SnapshotPaths() {}

  static void checkCreatable(OpContext ctx, Resolution known, List<String> names) throws IOException {
    int i = names.indexOf(ReservedNames.DOT_SNAPSHOT);
    if (i >= 0 && i < names.size() - 1 && snapshottable(ctx, known, names.subList(0, i))) {
      throw new IndexFsException(Code.SNAPSHOT_READ_ONLY, "Modification on a read-only snapshot is disallowed");
    }
    ReservedNames.checkCreatable(names);
  }

  private static boolean snapshottable(OpContext ctx, Resolution known, List<String> dir) {
    Resolution upTo = known.getAncestorsCount() <= dir.size() + 1 ? known
        : Resolution.newBuilder().addAllAncestors(known.getAncestorsList().subList(0, dir.size() + 1)).build();
    try {
      ResolvedPath p = ctx.ns().read(none -> ctx.resolver().resolve(upTo, PathNames.join(dir, dir.size())));
      return p.last() != null && p.last().isDirectory() && p.last().has(Inode.FLAG_SNAPSHOTTABLE);
    } catch (IOException | RuntimeException e) {
      return false; // not known here: the reserved name's refusal
    }
  }
}
