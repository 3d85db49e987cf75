package org.indexfs.server.quota;

import java.util.ArrayList;
import java.util.List;
import org.indexfs.common.schema.Inode;
import org.indexfs.server.ns.ResolvedPath;

/** A directory with a quota on the way to a change: its id, its home slot (which keeps the quota) and its path. */
public record QuotaRoot(long dirId, int home, String path) {
  /** The quota'd directories among the first {@code depth} entries of {@code p} (the root first), deepest first. */
  public static List<QuotaRoot> above(ResolvedPath p, int depth) {
    List<QuotaRoot> out = null;
    for (int i = Math.min(depth, p.existingCount()) - 1; i >= 0; i--) {
      Inode dir = p.inodeAt(i);
      if (dir != null && dir.isDirectory() && dir.has(Inode.FLAG_QUOTA)) {
        if (out == null) {
          out = new ArrayList<>(2);
        }
        out.add(new QuotaRoot(dir.inodeId, dir.zerothSlot, p.pathAt(i)));
      }
    }
    return out == null ? List.of() : out;
  }

  /** Roots in {@code a} that are not in {@code b}: what a move out of {@code a}'s subtree into {@code b}'s leaves. */
  public static List<QuotaRoot> minus(List<QuotaRoot> a, List<QuotaRoot> b) {
    if (a.isEmpty() || b.isEmpty()) {
      return a;
    }
    List<QuotaRoot> out = new ArrayList<>(a.size());
    for (QuotaRoot r : a) {
      if (b.stream().noneMatch(x -> x.dirId() == r.dirId())) {
        out.add(r);
      }
    }
    return out;
  }
}
