package org.indexfs.common;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Path rules as HDFS applies them (DFSUtil.isValidName plus the fs-limits): absolute, no empty,
 * "." or ".." components, no ':' or NUL, components at most {@code maxComponentBytes} long; and
 * the NameNode's limit on the whole path of what is created ({@link #checkPathLength}).
 */
public final class PathNames {
  public static final String ROOT = "/";
  /** HDFS: HdfsServerConstants.MAX_PATH_LENGTH, a constant of the NameNode (not configurable). */
  public static final int MAX_PATH_LENGTH = 8000;
  /** HDFS: HdfsServerConstants.MAX_PATH_DEPTH. */
  public static final int MAX_PATH_DEPTH = 1000;

  private PathNames() {}

  /** Splits a valid absolute path into its components ("/" gives none). */
  public static List<String> components(String path, int maxComponentBytes) throws IndexFsException {
    if (path == null || path.isEmpty()) {
      throw IndexFsException.invalidPath(String.valueOf(path), "empty path");
    }
    if (path.charAt(0) != '/') {
      throw IndexFsException.invalidPath(path, "not an absolute path");
    }
    List<String> parts = new ArrayList<>();
    int start = 1;
    int n = path.length();
    // Trailing slashes are tolerated ("/a/", "/a//"): HDFS's isValidName drops trailing empty
    // components, and only an empty component in the middle ("/a//b") is invalid.
    while (n > 1 && path.charAt(n - 1) == '/') {
      n--;
    }
    while (start <= n && n > 1) {
      int end = path.indexOf('/', start);
      if (end < 0 || end > n) {
        end = n;
      }
      String part = path.substring(start, end);
      checkComponent(path, start == 1 ? ROOT : path.substring(0, start - 1), part, maxComponentBytes);
      parts.add(part);
      start = end + 1;
    }
    return parts;
  }

  /**
   * The NameNode's check on the path of what {@code op} would create (create, mkdirs, rename's
   * destination, createSnapshot's directory), made before any other: at most {@value
   * #MAX_PATH_LENGTH} characters and {@value #MAX_PATH_DEPTH} components. Refused as HDFS refuses it,
   * with a plain IOException and these words (NameNodeRpcServer.checkPathLength).
   */
  public static void checkPathLength(String op, String path) throws IndexFsException {
    if (path.length() > MAX_PATH_LENGTH || depth(path) > MAX_PATH_DEPTH) {
      throw new IndexFsException(org.indexfs.proto.Code.REFUSED, op + ": Pathname too long.  Limit "
          + MAX_PATH_LENGTH + " characters, " + MAX_PATH_DEPTH + " levels.");
    }
  }

  /** Components of {@code path} as Hadoop's Path.depth() counts them (empty ones do not count). */
  static int depth(String path) {
    int depth = 0;
    boolean inName = false;
    for (int i = 0; i < path.length(); i++) {
      boolean slash = path.charAt(i) == '/';
      if (!slash && !inName) {
        depth++;
      }
      inName = !slash;
    }
    return depth;
  }

  /** Validates the last component of {@code path}. */
  public static void checkComponent(String path, String part, int maxComponentBytes)
      throws IndexFsException {
    checkComponent(path, parentOf(path), part, maxComponentBytes);
  }

  /** Validates one component of {@code path}, found in directory {@code dir} (HDFS names it when refusing). */
  public static void checkComponent(String path, String dir, String part, int maxComponentBytes)
      throws IndexFsException {
    if (part.isEmpty()) {
      throw IndexFsException.invalidPath(path, "empty path component");
    }
    if (part.equals(".") || part.equals("..")) {
      throw IndexFsException.invalidPath(path, "'" + part + "' is not allowed as a path component");
    }
    for (int i = 0; i < part.length(); i++) {
      char c = part.charAt(i);
      if (c == ':' || c == '\0') {
        throw IndexFsException.invalidPath(path, "character " + (c == 0 ? "NUL" : "':'") + " is not allowed");
      }
    }
    int bytes = part.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > maxComponentBytes) {
      throw new IndexFsException(org.indexfs.proto.Code.PATH_COMPONENT_TOO_LONG,
          "The maximum path component name limit of " + part + " in directory " + dir
              + " is exceeded: limit=" + maxComponentBytes + " length=" + bytes);
    }
  }

  /** The parent of an absolute path ("/" for "/a"). */
  public static String parentOf(String path) {
    int i = path.lastIndexOf('/');
    return i <= 0 ? ROOT : path.substring(0, i);
  }

  public static String join(List<String> parts, int count) {
    if (count == 0) {
      return ROOT;
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < count; i++) {
      sb.append('/').append(parts.get(i));
    }
    return sb.toString();
  }

  /** True when {@code descendant} equals {@code ancestor} or lies below it. */
  public static boolean isSameOrBelow(List<String> ancestor, List<String> descendant) {
    if (descendant.size() < ancestor.size()) {
      return false;
    }
    return descendant.subList(0, ancestor.size()).equals(ancestor);
  }
}
