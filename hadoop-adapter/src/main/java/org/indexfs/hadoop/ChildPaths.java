package org.indexfs.hadoop;

import java.net.URI;
import org.apache.hadoop.fs.Path;

/**
 * The paths of a listed directory's children, as {@code new Path(dir, name)} makes them (what
 * HDFS's client does for every listed entry), without its cost: that constructor parses a URI
 * three times and runs a regular expression, three quarters of a listing's client CPU. A name of
 * characters that mean nothing to a URI's syntax gives the same URI when appended to the
 * directory's and parsed once; any other name goes the long way, so every path equals the one
 * {@code new Path(dir, name)} gives.
 */
final class ChildPaths {
  private final Path dir;
  /** The directory's URI with a slash after it; null: not a plain absolute directory URI. */
  private final String prefix;

  ChildPaths(Path dir) {
    this.dir = dir;
    URI u = dir.toUri();
    String path = u.getPath();
    boolean plain = u.getFragment() == null && u.getQuery() == null && path != null && path.startsWith("/");
    String s = u.toString();
    this.prefix = !plain ? null : s.endsWith("/") ? s : s + "/";
  }

  Path of(String name) {
    return prefix != null && plain(name) ? new Path(URI.create(prefix + name)) : new Path(dir, name);
  }

  /**
   * Letters, digits and {@code . _ - = , + ~ @}, not "." or "..": unreserved or allowed as they
   * are in a URI's path, never quoted, never a scheme's colon, a query, a fragment, an escape or
   * a dot segment.
   */
  static boolean plain(String name) {
    int n = name.length();
    if (n == 0 || name.equals(".") || name.equals("..")) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      char c = name.charAt(i);
      boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == '.' || c == '_' || c == '-' || c == '=' || c == ',' || c == '+' || c == '~' || c == '@';
      if (!ok) {
        return false;
      }
    }
    return true;
  }
}
