package org.indexfs.server.ns;

import java.io.IOException;
import java.util.List;
import org.indexfs.common.PathNames;
import org.indexfs.common.schema.Inode;

/** Walks a path component by component from the root (one point lookup per component). */
public final class PathResolver {
  private final Namespace ns;
  private final int maxComponentBytes;

  public PathResolver(Namespace ns, int maxComponentBytes) {
    this.ns = ns;
    this.maxComponentBytes = maxComponentBytes;
  }

  public List<String> parse(String path) throws IOException {
    return PathNames.components(path, maxComponentBytes);
  }

  public ResolvedPath resolve(String path) throws IOException {
    List<String> names = parse(path);
    Inode[] inodes = new Inode[names.size() + 1];
    inodes[0] = ns.root();
    int existing = 1;
    for (int i = 0; i < names.size(); i++) {
      Inode dir = inodes[i];
      if (!dir.isDirectory()) {
        break;
      }
      Inode child = ns.lookup(dir.inodeId, names.get(i));
      if (child == null) {
        break;
      }
      inodes[i + 1] = child;
      existing++;
    }
    return new ResolvedPath(path, names, inodes, existing);
  }
}
