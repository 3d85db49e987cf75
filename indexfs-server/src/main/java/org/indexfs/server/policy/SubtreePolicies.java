package org.indexfs.server.policy;

import org.indexfs.common.policy.SubtreePolicy;
import org.indexfs.common.schema.Inode;
import org.indexfs.server.ns.ResolvedPath;

/**
 * The policy in force on a walked path: the one set by its deepest existing directory that sets
 * one, else {@link SubtreePolicy#DEFAULT}. Every directory of the walk carries its flags (sealed
 * when a client presented it), so this costs no extra read.
 */
public final class SubtreePolicies {
  private SubtreePolicies() {}

  /** The policy in force and where it is set (depth -1: nowhere, the default). */
  public record InForce(SubtreePolicy policy, int depth) {}

  public static InForce at(ResolvedPath p) {
    for (int i = p.existingCount() - 1; i >= 0; i--) {
      Inode dir = p.inodeAt(i);
      if (dir != null && dir.isDirectory()) {
        SubtreePolicy defined = SubtreePolicy.fromFlags(dir.flags);
        if (defined != null) {
          return new InForce(defined, i);
        }
      }
    }
    return new InForce(SubtreePolicy.DEFAULT, -1);
  }

  /** The policy flags of the directory whose policy is in force at {@code p} (0: the default). */
  public static int flagsAt(ResolvedPath p) {
    for (int i = p.existingCount() - 1; i >= 0; i--) {
      Inode dir = p.inodeAt(i);
      if (dir != null && dir.has(Inode.FLAG_POLICY)) {
        return dir.flags & Inode.POLICY_FLAGS;
      }
    }
    return 0;
  }

  /** True when a change at {@code p} may be acknowledged before its fsync. */
  public static boolean acknowledgeBeforeSync(ResolvedPath p) {
    return at(p).policy().durability() == SubtreePolicy.Durability.ASYNC;
  }
}
