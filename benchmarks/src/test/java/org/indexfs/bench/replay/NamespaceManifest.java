package org.indexfs.bench.replay;

import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A namespace reduced to what the round trip must preserve: for every entry below a root, its
 * type, owner, group and mode, and for files their length and replication (times are not in
 * audit logs and are left out).
 */
final class NamespaceManifest {
  private NamespaceManifest() {}

  static Map<String, String> of(FileSystem fs, String root) throws IOException {
    Map<String, String> out = new TreeMap<>();
    walk(fs, new Path(root), out);
    return out;
  }

  private static void walk(FileSystem fs, Path dir, Map<String, String> out) throws IOException {
    out.put(dir.toUri().getPath(), describe(fs.getFileStatus(dir)));
    for (FileStatus s : fs.listStatus(dir)) {
      if (s.isDirectory()) {
        walk(fs, s.getPath(), out);
      } else {
        out.put(s.getPath().toUri().getPath(), describe(s));
      }
    }
  }

  private static String describe(FileStatus s) {
    String common = s.getOwner() + ":" + s.getGroup() + ":" + s.getPermission();
    return s.isDirectory() ? "dir " + common
        : "file " + common + " length=" + s.getLen() + " replication=" + s.getReplication();
  }

  /** The entries of {@code m} not below {@code prefix}. */
  static Map<String, String> outside(Map<String, String> m, String prefix) {
    Map<String, String> out = new TreeMap<>(m);
    out.keySet().removeIf(p -> p.equals(prefix) || p.startsWith(prefix + "/"));
    return out;
  }

  /** The entries of {@code m} below (or at) {@code prefix}. */
  static Map<String, String> inside(Map<String, String> m, String prefix) {
    Map<String, String> out = new TreeMap<>(m);
    out.keySet().removeIf(p -> !(p.equals(prefix) || p.startsWith(prefix + "/")));
    return out;
  }
}
