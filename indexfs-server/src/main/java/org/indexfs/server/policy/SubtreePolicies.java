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
    int depth = p.policyDepth();
    return depth < 0 ? new InForce(SubtreePolicy.DEFAULT, -1)
        : new InForce(SubtreePolicy.fromFlags(p.inodeAt(depth).flags), depth);
  }

  /** The policy flags of the directory whose policy is in force at {@code p} (0: the default). */
  public static int flagsAt(ResolvedPath p) {
    int depth = p.policyDepth();
    return depth < 0 ? 0 : p.inodeAt(depth).flags & Inode.POLICY_FLAGS;
  }
}
