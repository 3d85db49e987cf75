package org.indexfs.hadoop.decoupled;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.indexfs.proto.FileStatus;

/**
 * A checked-out subtree (Cudele's decoupled consistency): the entries read at check-out and what
 * this client does to them, all in this process — no call goes to a server until the merge. Paths
 * are absolute; the root is the checked-out directory. Renames and deletes of checked-out entries
 * are also recorded as {@link ServerChange}s, in order, for the merge to replay.
 */
public final class PrivateCopy {
  /** HDFS's listing order: names' UTF-8 bytes compared as signed values. */
  private static final Comparator<String> HDFS_ORDER =
      (a, b) -> Arrays.compare(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));

  private final String root;
  private final String owner;
  private final String group;
  private final Path scratch;
  private final TreeMap<String, CopyNode> nodes = new TreeMap<>();
  private final List<ServerChange> changes = new ArrayList<>();

  PrivateCopy(String root, FileStatus rootStatus, String owner, Path scratch) {
    this.root = root;
    this.owner = owner;
    this.group = rootStatus.getGroup(); // BSD rule: new entries take their directory's group
    this.scratch = scratch;
    nodes.put(root, new CopyNode(rootStatus, root));
  }

  public String root() {
    return root;
  }

  /** The refusal of {@code call} of {@code path}, which a copy does not answer. */
  public UnsupportedOperationException refusal(String path, String call) {
    return new UnsupportedOperationException(call + " of " + path + " is not supported in the checked-out copy of "
        + root + " (a copy keeps names, bytes, modes of new entries, renames and deletes): merge it first");
  }

  /** Adds an entry read at check-out. */
  void checkedOut(String path, FileStatus status) {
    nodes.put(path, new CopyNode(status, path));
  }

  /** True for the root and everything below it. */
  public boolean covers(String path) {
    return path.equals(root) || (path.startsWith(root) && path.length() > root.length()
        && path.charAt(root.length()) == '/');
  }

  private static String parentOf(String path) {
    int i = path.lastIndexOf('/');
    return i == 0 ? "/" : path.substring(0, i);
  }

  private static String nameOf(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  /** Everything strictly below {@code dir}, in path order. */
  private NavigableMap<String, CopyNode> below(String dir) {
    return nodes.subMap(dir + "/", true, dir + "0", false); // '0' follows '/'
  }

  private CopyNode node(String path) throws FileNotFoundException {
    CopyNode n = nodes.get(path);
    if (n == null) {
      throw new FileNotFoundException("File does not exist: " + path);
    }
    return n;
  }

  public synchronized FileStatus status(String path) throws IOException {
    return node(path).status(path.equals("/") ? "" : nameOf(path), owner, group);
  }

  /** The entries of directory {@code path} in HDFS order (a file lists itself). */
  public synchronized List<FileStatus> list(String path) throws IOException {
    CopyNode n = node(path);
    if (!n.dir) {
      return List.of(status(path));
    }
    TreeMap<String, FileStatus> out = new TreeMap<>(HDFS_ORDER);
    String prefix = path + "/";
    for (Map.Entry<String, CopyNode> e : below(path).entrySet()) {
      if (e.getKey().indexOf('/', prefix.length()) < 0) {
        String name = e.getKey().substring(prefix.length());
        out.put(name, e.getValue().status(name, owner, group));
      }
    }
    return new ArrayList<>(out.values());
  }

  /** The directory {@code path}, made with its missing parents as HDFS's mkdirs does. */
  public synchronized boolean mkdirs(String path, int permission) throws IOException {
    parents(path, permission | 0300);
    CopyNode n = nodes.get(path);
    if (n != null && !n.dir) {
      throw new FileAlreadyExistsException("Path is not a directory: " + path);
    }
    if (n == null) {
      nodes.put(path, new CopyNode(true, permission, 0, 0, System.currentTimeMillis()));
    }
    return true;
  }

  /** Makes the missing directories above {@code path} in the copy, from the top (a loop: paths may be deep). */
  private void parents(String path, int permission) throws IOException {
    java.util.ArrayDeque<String> missing = new java.util.ArrayDeque<>();
    for (String parent = parentOf(path); covers(parent); parent = parentOf(parent)) {
      CopyNode p = nodes.get(parent);
      if (p != null) {
        if (!p.dir) {
          throw new ParentNotDirectoryException("Parent path is not a directory: " + parent);
        }
        break;
      }
      missing.push(parent);
      if (parent.equals(parentOf(parent))) {
        break;
      }
    }
    while (!missing.isEmpty()) {
      nodes.put(missing.pop(), new CopyNode(true, permission, 0, 0, System.currentTimeMillis()));
    }
  }

  /** A new file in the copy, written through the returned stream. */
  public synchronized OutputStream create(String path, int permission, boolean overwrite, int replication, long blockSize,
      boolean createParent) throws IOException {
    if (path.equals(root)) {
      throw new FileAlreadyExistsException(path + " already exists as a directory");
    }
    if (!createParent && !nodes.containsKey(parentOf(path))) {
      throw new FileNotFoundException("Parent directory doesn't exist: " + parentOf(path));
    }
    parents(path, 0755);
    CopyNode existing = nodes.get(path);
    if (existing != null) {
      if (existing.dir) {
        throw new FileAlreadyExistsException(path + " already exists as a directory");
      }
      if (!overwrite) {
        throw new FileAlreadyExistsException(path + " for client already exists");
      }
      if (existing.base != null) {
        changes.add(ServerChange.delete(path, existing.base)); // an overwrite is a delete and a create
      }
      existing.discard();
    }
    CopyNode f = new CopyNode(false, permission, replication, blockSize, System.currentTimeMillis());
    nodes.put(path, f);
    return f.writer(scratch);
  }

  /** A file's node when the copy wrote its bytes; null for one checked out (its bytes are the server's). */
  synchronized CopyNode written(String path) throws IOException {
    CopyNode n = node(path);
    if (n.dir) {
      throw new FileNotFoundException("Path is not a file: " + path);
    }
    return n.base == null ? n : null;
  }

  /**
   * The bytes of file {@code path} as written in the copy, or null for a file checked out: its
   * bytes are the server's, read at {@link #origin}.
   */
  public synchronized byte[] readWritten(String path) throws IOException {
    CopyNode n = written(path);
    if (n == null) {
      return null;
    }
    try (java.io.InputStream in = n.bytes()) {
      return in.readAllBytes();
    }
  }

  /** Where the server holds checked-out file {@code path}. */
  public synchronized String origin(String path) throws IOException {
    return node(path).origin;
  }

  /** {@code FileSystem.rename}: false where HDFS answers false. */
  public synchronized boolean rename(String src, String dst) throws IOException {
    CopyNode moving = nodes.get(src);
    if (moving == null || src.equals(root) || !covers(dst)) {
      return false;
    }
    if (src.equals(dst)) {
      return true;
    }
    CopyNode target = nodes.get(dst);
    if (target != null && target.dir) {
      dst = dst + "/" + nameOf(src);
      target = nodes.get(dst);
    }
    CopyNode parent = nodes.get(parentOf(dst));
    if (target != null || parent == null || !parent.dir || (dst + "/").startsWith(src + "/")) {
      return false;
    }
    if (holdsCheckedOut(src, moving)) {
      changes.add(ServerChange.move(src, dst, moving.base));
    }
    List<Map.Entry<String, CopyNode>> moved = new ArrayList<>(below(src).entrySet());
    below(src).clear();
    nodes.remove(src);
    nodes.put(dst, moving);
    for (Map.Entry<String, CopyNode> e : moved) {
      nodes.put(dst + e.getKey().substring(src.length()), e.getValue());
    }
    return true;
  }

  private boolean holdsCheckedOut(String path, CopyNode n) {
    return n.base != null || (n.dir && below(path).values().stream().anyMatch(c -> c.base != null));
  }

  /** {@code FileSystem.delete}: false when nothing is there. */
  public synchronized boolean delete(String path, boolean recursive) throws IOException {
    if (path.equals(root)) {
      throw new IOException("Cannot delete " + root + " while it is checked out: merge or discard the copy first");
    }
    CopyNode n = nodes.get(path);
    if (n == null) {
      return false;
    }
    NavigableMap<String, CopyNode> inside = below(path);
    if (n.dir && !recursive && !inside.isEmpty()) {
      throw new PathIsNotEmptyDirectoryException(path + " is non empty': Directory is not empty");
    }
    // Deepest first, so each directory is empty of checked-out entries when its own delete is replayed.
    Deque<Map.Entry<String, CopyNode>> all = new ArrayDeque<>();
    all.push(Map.entry(path, n));
    inside.entrySet().forEach(all::push);
    while (!all.isEmpty()) {
      Map.Entry<String, CopyNode> e = all.pop();
      if (holdsCheckedOut(e.getKey(), e.getValue())) {
        changes.add(ServerChange.delete(e.getKey(), e.getValue().base));
      }
      e.getValue().discard();
    }
    inside.clear();
    nodes.remove(path);
    return true;
  }

  /** Renames and deletes of checked-out entries, in the order they happened. */
  synchronized List<ServerChange> changes() {
    return List.copyOf(changes);
  }

  /** Entries made in the copy (directories before what they hold), by path. */
  synchronized List<Map.Entry<String, CopyNode>> made() {
    List<Map.Entry<String, CopyNode>> out = new ArrayList<>();
    nodes.forEach((p, n) -> {
      if (n.base == null) {
        out.add(Map.entry(p, n));
      }
    });
    return out;
  }

  /** The root as checked out (the merge checks it is still that directory). */
  synchronized FileStatus checkedOutRoot() {
    return nodes.get(root).base;
  }

  /** Renames and deletes of checked-out entries plus entries made: what a merge would apply. */
  synchronized long changeCount() {
    return changes.size() + nodes.values().stream().filter(n -> n.base == null).count();
  }

  /** Drops every local byte. */
  synchronized void discard() throws IOException {
    for (CopyNode n : nodes.values()) {
      n.discard();
    }
  }
}
