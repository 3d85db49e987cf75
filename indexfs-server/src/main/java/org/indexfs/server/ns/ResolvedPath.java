package org.indexfs.server.ns;

import java.util.List;
import org.indexfs.common.PathNames;
import org.indexfs.common.schema.Inode;

/**
 * A path walked from the root: {@code inodes[0]} is the root and {@code inodes[i]} the entry named
 * {@code names[i-1]}, or null from the first missing component on. Walking stops early at a
 * missing entry or at a file that has components below it.
 */
public final class ResolvedPath {
  private final String path;
  private final List<String> names;
  private final Inode[] inodes;
  private final int existing;
  private final boolean[] local;

  ResolvedPath(String path, List<String> names, Inode[] inodes, int existing, boolean[] local) {
    this.local = local;
    this.path = path;
    this.names = names;
    this.inodes = inodes;
    this.existing = existing;
  }

  /**
   * True when the entry at depth {@code i} is stored on this slot (the walk read it here), so an
   * operation may rewrite it. Directories above the walk's start came from the client.
   */
  public boolean entryIsLocal(int i) {
    return local[i];
  }

  public String path() {
    return path;
  }

  public List<String> names() {
    return names;
  }

  /** Number of components (0 for the root). */
  public int depth() {
    return names.size();
  }

  public boolean isRoot() {
    return names.isEmpty();
  }

  /** The entry at depth {@code i} (0 = root), or null when it does not exist. */
  public Inode inodeAt(int i) {
    return inodes[i];
  }

  /** How many leading inodes exist, counting the root. */
  public int existingCount() {
    return existing;
  }

  /** The final entry, or null. */
  public Inode last() {
    return inodes[names.size()];
  }

  public String lastName() {
    return names.isEmpty() ? "" : names.get(names.size() - 1);
  }

  /** The parent of the final entry, or null when it does not exist (or is a file). */
  public Inode parent() {
    if (names.isEmpty()) {
      return null;
    }
    Inode p = inodes[names.size() - 1];
    return p != null && p.isDirectory() ? p : null;
  }

  /** The deepest existing entry: a directory, or a file that blocked the walk. */
  public Inode deepestExisting() {
    return inodes[existing - 1];
  }

  /** Path of the entry at depth {@code i}. */
  public String pathAt(int i) {
    return PathNames.join(names, i);
  }

  /** True when an existing ancestor of the final component is a file. */
  public boolean ancestorIsFile() {
    Inode deepest = deepestExisting();
    return !deepest.isDirectory() && existing - 1 < names.size();
  }

  /**
   * The depth of the deepest existing directory on this path that sets a subtree policy
   * ({@link Inode#FLAG_POLICY}, issue 18), or -1 when none does and the default is in force.
   */
  public int policyDepth() {
    for (int i = existing - 1; i >= 0; i--) {
      Inode dir = inodes[i];
      if (dir != null && dir.has(Inode.FLAG_POLICY)) {
        return i;
      }
    }
    return -1;
  }
}
