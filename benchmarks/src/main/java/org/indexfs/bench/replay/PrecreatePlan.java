package org.indexfs.bench.replay;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The namespace a trace expects before its first line (IndexFS paper §III-B, phase one): every
 * entry a successful call reads, changes or moves before the trace itself creates it, with the
 * directories above it. Derived by playing the trace's successful calls on a model tree that
 * follows creates, deletes and renames, so a path reached through a directory the trace renamed
 * is pre-created at its original place. Run {@link #add} over the trace, then read {@link #entries}.
 */
public final class PrecreatePlan {
  /** One entry to build: its path at the start of the trace, its type, and its owner (null: the replaying user). */
  public record Entry(String path, boolean directory, String owner) {
    int depth() {
      return path.equals("/") ? 0 : path.split("/").length - 1;
    }
  }

  private enum Guess { FILE, DIRECTORY, EITHER }

  private static final class Node {
    String name;
    Node parent;
    boolean directory;
    boolean typeGuessed;
    /** Where this entry was at the start of the trace; null if the trace created it. */
    final String origin;
    String owner;
    Map<String, Node> children;

    Node(String name, Node parent, boolean directory, String origin) {
      this.name = name;
      this.parent = parent;
      this.directory = directory;
      this.origin = origin;
    }

    Node child(String n) {
      return children == null ? null : children.get(n);
    }

    void attach(Node c) {
      if (children == null) {
        children = new HashMap<>();
      }
      c.parent = this;
      children.put(c.name, c);
    }

    void detach() {
      if (parent != null && parent.children != null) {
        parent.children.remove(name);
      }
      parent = null;
    }
  }

  private final Node root = new Node("", null, true, "/");
  private final List<Node> preexisting = new ArrayList<>();
  private final Map<String, Long> inconsistencies = new TreeMap<>();

  /** Plays one record on the model. Refused calls ({@code allowed=false}) tell nothing reliable and are skipped. */
  public void add(AuditEvent e) {
    if (!e.allowed()) {
      return;
    }
    String u = e.user();
    switch (e.command()) {
      case GETFILEINFO, SET_PERMISSION, SET_OWNER, SET_TIMES -> require(e.src(), Guess.EITHER, u);
      case LIST_STATUS, CONTENT_SUMMARY -> require(e.src(), Guess.DIRECTORY, u);
      case OPEN, SET_REPLICATION, APPEND, TRUNCATE -> require(e.src(), Guess.FILE, u);
      case CREATE -> create(e.src(), false);
      case MKDIRS -> create(e.src(), true);
      case DELETE -> {
        Node n = require(e.src(), Guess.EITHER, u);
        if (n != null && n != root) {
          n.detach();
        }
      }
      case RENAME -> rename(e, u);
      case CONCAT -> {
        require(e.dst(), Guess.FILE, u);
        for (String s : e.concatSources()) {
          Node n = require(s, Guess.FILE, u);
          if (n != null) {
            n.detach();
          }
        }
      }
      default -> throw new IllegalStateException("No model for " + e.command());
    }
  }

  private void rename(AuditEvent e, String user) {
    Node moving = require(e.src(), Guess.EITHER, user);
    if (moving == null || moving == root) {
      return;
    }
    Node target = lookup(e.dst());
    Node newParent;
    String newName;
    if (!e.renameWithOptions() && target != null && target.directory) {
      newParent = target; // FileSystem.rename into an existing directory
      newName = moving.name;
    } else {
      newParent = require(parentOf(e.dst()), Guess.DIRECTORY, null);
      newName = nameOf(e.dst());
    }
    if (newParent == null) {
      return;
    }
    moving.detach();
    moving.name = newName;
    newParent.attach(moving);
  }

  /**
   * Creates a file or directory. A missing parent below a pre-existing directory is taken to have
   * existed too (a trace cannot tell it from one made implicitly, and only a pre-existing one
   * explains later reads of its other entries); below a directory the trace made, it is made here.
   */
  private void create(String path, boolean directory) {
    Node cur = root;
    List<String> names = names(path);
    for (int i = 0; i < names.size(); i++) {
      boolean last = i == names.size() - 1;
      Node next = cur.child(names.get(i));
      if (next == null && !last && cur.origin != null) {
        next = new Node(names.get(i), cur, true, (cur == root ? "" : cur.origin) + "/" + names.get(i));
        cur.attach(next);
        preexisting.add(next);
      }
      if (next != null && !last && !next.directory) {
        if (!(next.typeGuessed && next.origin != null)) {
          inconsistent("create below a file");
          return;
        }
        next.directory = true;
        next.typeGuessed = false;
      }
      if (next == null || (last && !directory)) {
        if (last && next != null && next.directory) {
          inconsistent("create over a directory");
          return;
        }
        next = new Node(names.get(i), cur, !last || directory, null);
        cur.attach(next);
      }
      cur = next;
    }
  }

  /** The entry at {@code path}, materialised as pre-existing if the trace has not created it. */
  private Node require(String path, Guess guess, String user) {
    Node cur = root;
    List<String> names = names(path);
    for (int i = 0; i < names.size(); i++) {
      boolean last = i == names.size() - 1;
      Node next = cur.child(names.get(i));
      if (next == null) {
        if (cur.origin == null) {
          inconsistent("entry used inside a directory the trace created, but never created there");
          return null;
        }
        next = new Node(names.get(i), cur, !last || guess == Guess.DIRECTORY,
            (cur == root ? "" : cur.origin) + "/" + names.get(i));
        next.typeGuessed = last && guess == Guess.EITHER;
        next.owner = last ? user : null;
        cur.attach(next);
        preexisting.add(next);
      } else if (!last && !next.directory) {
        if (!(next.typeGuessed && next.origin != null)) {
          inconsistent("path goes through a file");
          return null;
        }
        next.directory = true;
        next.typeGuessed = false;
      } else if (last && next.typeGuessed && guess != Guess.EITHER) {
        next.directory = guess == Guess.DIRECTORY;
        next.typeGuessed = false;
      }
      cur = next;
    }
    return cur;
  }

  private Node lookup(String path) {
    Node cur = root;
    for (String n : names(path)) {
      cur = cur.child(n);
      if (cur == null) {
        return null;
      }
    }
    return cur;
  }

  private void inconsistent(String reason) {
    inconsistencies.merge(reason, 1L, Long::sum);
  }

  /** Entries to build, parents before children (entries of unknown type become files). */
  public List<Entry> entries() {
    Map<String, Entry> byPath = new HashMap<>();
    for (Node n : preexisting) {
      // A pre-existing entry deleted and later used again without being created is one entry.
      byPath.putIfAbsent(n.origin, new Entry(n.origin, n.directory, n.owner));
    }
    List<Entry> out = new ArrayList<>(byPath.values());
    out.sort(Comparator.comparingInt(Entry::depth).thenComparing(Entry::path));
    return out;
  }

  /** Successful calls the model could not explain (the trace misses their cause), by reason. */
  public Map<String, Long> inconsistencies() {
    return inconsistencies;
  }

  static List<String> names(String path) {
    List<String> out = new ArrayList<>();
    for (String s : path.split("/")) {
      if (!s.isEmpty()) {
        out.add(s);
      }
    }
    return out;
  }

  static String parentOf(String path) {
    int i = path.lastIndexOf('/', path.length() - (path.endsWith("/") ? 2 : 1));
    return i <= 0 ? "/" : path.substring(0, i);
  }

  static String nameOf(String path) {
    List<String> n = names(path);
    return n.isEmpty() ? "" : n.get(n.size() - 1);
  }
}
