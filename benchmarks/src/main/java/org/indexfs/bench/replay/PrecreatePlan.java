package org.indexfs.bench.replay;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The namespace a trace expects before its first line (IndexFS paper §III-B, phase one), inferred
 * from the whole trace. The trace is played on a model tree ({@link ModelNode}) that follows
 * creates, deletes and renames; whether an entry existed before the trace is decided by the first
 * record that tells — a later open, delete or rename of it (or of anything below it) says it
 * existed, a later create of it or rename onto it says it did not. HDFS's audit quirks are taken
 * for what they are: an audited {@code getfileinfo} or {@code listStatus} is {@code allowed=true}
 * whether or not the path exists (and listing a file lists the file), so they prove nothing and
 * are expected to find nothing when the model says so. Refusals ({@code allowed=false}) get
 * owners and modes that reproduce them ({@link AccessInference}). What the trace does not decide
 * is assumed, and counted in {@link #inferences()}.
 *
 * <p>Run {@link #add} over the trace in order, then read {@link #entries()} and
 * {@link #expected(AuditEvent)}.
 */
public final class PrecreatePlan {
  /**
   * One entry to build: its path when the trace began, its type, its owner (null: the replaying
   * user), its group (null: inherited from its parent) and mode (-1: the permissive default,
   * {@code rwxrwxrwx} for directories and {@code rw-rw-rw-} for files).
   */
  public record Entry(String path, boolean directory, String owner, String group, int mode) {
    public Entry(String path, boolean directory, String owner) {
      this(path, directory, owner, null, -1);
    }

    int depth() {
      return path.equals("/") ? 0 : path.split("/").length - 1;
    }
  }

  private final ModelNode root = ModelNode.root();
  private final List<ModelNode> older = new ArrayList<>();
  private final Set<String> loginUsers;
  private final Set<String> superusers = new TreeSet<>();
  private final Set<String> users = new TreeSet<>();
  private final Map<String, Long> inconsistencies = new TreeMap<>();
  private final Map<String, Long> inferences = new TreeMap<>();
  private final Map<Long, String> notes = new HashMap<>();
  private final AccessInference access = new AccessInference();
  private final List<ModelNode> pendingNodes = new ArrayList<>();
  private long[] pendingLines = new long[1024];
  private final BitSet absentProbes = new BitSet();
  private final Set<Long> absentProbesBeyondInt = new HashSet<>();
  private List<Entry> entries;

  public PrecreatePlan() {
    this(Set.of());
  }

  /** {@code loginUsers}: trace users that are superusers on the targets anyway (the replaying user). */
  public PrecreatePlan(Set<String> loginUsers) {
    this.loginUsers = Set.copyOf(loginUsers);
  }

  /** Plays one record on the model. */
  public void add(AuditEvent e) {
    if (entries != null) {
      throw new IllegalStateException("The plan is finished");
    }
    users.add(e.user());
    if (!e.allowed()) {
      refused(e);
      return;
    }
    String u = e.user();
    long line = e.line();
    switch (e.command()) {
      case GETFILEINFO, LIST_STATUS -> probe(e.src(), u, line, e.command() == Command.LIST_STATUS);
      case CONTENT_SUMMARY -> {
        ModelNode n = require(e.src(), ModelNode.UNKNOWN_TYPE, u, line);
        if (n != null) {
          n.listed = true;
          need(n, u, EntryAccess.READ | EntryAccess.EXECUTE, true);
        }
      }
      case OPEN -> need(require(e.src(), ModelNode.FILE, u, line), u, EntryAccess.READ, true);
      case MKDIRS -> make(e.src(), ModelNode.DIRECTORY, e.perm(), u, line);
      case CREATE -> make(e.src(), ModelNode.FILE, e.perm(), u, line);
      case DELETE -> {
        ModelNode n = require(e.src(), ModelNode.UNKNOWN_TYPE, u, line);
        if (n == root) {
          inconsistent(line, "delete of the root");
        } else if (n != null) {
          need(n.parent, u, EntryAccess.WRITE | EntryAccess.EXECUTE, false);
          n.removeFromParent();
        }
      }
      case RENAME -> rename(e, u, line);
      case SET_PERMISSION, SET_OWNER -> {
        ModelNode n = require(e.src(), ModelNode.UNKNOWN_TYPE, u, line);
        if (n != null && e.command() == Command.SET_OWNER && e.permOwner() != null && !e.permOwner().equals(u)) {
          superusers.add(u); // only a superuser gives an entry away
        } else if (n != null) {
          if (e.command() == Command.SET_PERMISSION) {
            reveal(n, e, false); // owner and group are the ones it had
          }
          need(n, u, EntryAccess.OWN, true);
        }
        if (n != null && mayBeOlder(n)) {
          n.access().changed = true;
        }
      }
      case SET_TIMES -> {
        ModelNode n = require(e.src(), ModelNode.UNKNOWN_TYPE, u, line);
        reveal(n, e, true);
        need(n, u, EntryAccess.WRITE, true);
      }
      case SET_REPLICATION, APPEND, TRUNCATE -> need(require(e.src(), ModelNode.FILE, u, line), u, EntryAccess.WRITE, true);
      case CONCAT -> {
        need(require(e.dst(), ModelNode.FILE, u, line), u, EntryAccess.WRITE, true);
        for (String s : e.concatSources()) {
          ModelNode n = require(s, ModelNode.FILE, u, line);
          if (n != null) {
            need(n.parent, u, EntryAccess.WRITE | EntryAccess.EXECUTE, false);
            n.removeFromParent();
          }
        }
      }
      default -> throw new IllegalStateException("No model for " + e.command());
    }
  }

  /** getfileinfo / listStatus: audited as allowed whether or not the path exists. */
  private void probe(String path, String user, long line, boolean listing) {
    ModelNode n = walk(path, user);
    switch (n.now) {
      case ABSENT -> markAbsent(line);
      case PRESENT -> { }
      case UNCHANGED -> {
        n.probed = true;
        if (pendingNodes.size() == pendingLines.length) {
          pendingLines = java.util.Arrays.copyOf(pendingLines, pendingLines.length * 2);
        }
        pendingLines[pendingNodes.size()] = line;
        pendingNodes.add(n);
      }
    }
    if (n.now != ModelNode.Now.ABSENT) {
      n.listed |= listing;
      need(n, user, listing ? EntryAccess.READ | EntryAccess.EXECUTE : 0, true);
    }
  }

  /** The node at {@code path}, materialised without deciding anything; records traversal of its ancestors. */
  private ModelNode walk(String path, String user) {
    ModelNode cur = root;
    for (String name : names(path)) {
      if (user != null && cur != root) {
        need(cur, user, EntryAccess.EXECUTE, false);
      }
      cur = cur.child(name, older::add);
    }
    return cur;
  }

  /**
   * The entry at {@code path}, which the record shows existing now (deciding it existed before if
   * the trace had not changed it).
   */
  private ModelNode require(String path, byte type, String user, long line) {
    ModelNode cur = root;
    List<String> names = names(path);
    for (int i = 0; i < names.size(); i++) {
      if (cur != root) {
        need(cur, user, EntryAccess.EXECUTE, false);
      }
      ModelNode c = cur.child(names.get(i), older::add);
      if (c.now == ModelNode.Now.ABSENT) {
        inconsistent(line, "used where the trace shows nothing exists");
        return null;
      }
      if (c.now == ModelNode.Now.UNCHANGED) {
        c.decidePresentBefore();
      }
      if (i < names.size() - 1) {
        if (c.type == ModelNode.FILE) {
          inconsistent(line, "path goes through a file");
          return null;
        }
        c.type = ModelNode.DIRECTORY;
      }
      cur = c;
    }
    if (type == ModelNode.FILE && cur.type != ModelNode.FILE) {
      if (cur.type == ModelNode.DIRECTORY) {
        inconsistent(line, "a directory used as a file");
        return null;
      }
      cur.becomeFile();
    } else if (type == ModelNode.DIRECTORY) {
      if (cur.type == ModelNode.FILE) {
        inconsistent(line, "a file used as a directory");
        return null;
      }
      cur.type = ModelNode.DIRECTORY;
    }
    return cur;
  }

  /**
   * mkdirs or create. A directory mkdirs names (or passes) that the trace had not decided exists
   * from now on, and whether it existed before stays open until a later record tells (mkdirs of
   * an existing directory succeeds; later use of older entries below it says it was there). A
   * create's missing parents below an older directory are taken to have been there, inside a
   * directory the trace may have made they are made too. A created file did not exist before (the
   * usual reading: create after a getfileinfo that found nothing).
   */
  private void make(String path, byte type, String perm, String user, long line) {
    ModelNode cur = root;
    List<String> names = names(path);
    boolean needed = false;
    for (int i = 0; i < names.size(); i++) {
      boolean last = i == names.size() - 1;
      ModelNode c = cur.child(names.get(i), older::add);
      if (!needed && c.now != ModelNode.Now.PRESENT && cur != root) {
        need(cur, user, EntryAccess.WRITE | EntryAccess.EXECUTE, false);
        needed = true;
      } else if (cur != root && c.now == ModelNode.Now.PRESENT) {
        need(cur, user, EntryAccess.EXECUTE, false);
      }
      if (!last || type == ModelNode.DIRECTORY) {
        if (c.now == ModelNode.Now.PRESENT && c.type == ModelNode.FILE) {
          inconsistent(line, last ? "mkdirs over a file" : "create below a file");
          return;
        }
        if (c.now == ModelNode.Now.UNCHANGED && type == ModelNode.FILE && cur.before == ModelNode.Before.PRESENT) {
          // A create's parent below an older directory: the usual reading is that it was there
          // (clients make directories with mkdirs, which the trace would show).
          c.decidePresentBefore();
        } else if (c.now == ModelNode.Now.UNCHANGED) {
          c.madeByTrace = true;
          if (last && perm != null && mayBeOlder(c)) {
            revealPerm(c, perm, true); // existing: mkdirs printed what it had; new: what it got
          }
        }
        c.now = ModelNode.Now.PRESENT;
        c.type = ModelNode.DIRECTORY;
      } else {
        if (c.now == ModelNode.Now.PRESENT) {
          if (c.type == ModelNode.DIRECTORY) {
            inconsistent(line, "create over a directory");
            return;
          }
          c = cur.absentMarker(c.name); // overwritten: a new file in its place
          cur.put(c);
        } else if (c.now == ModelNode.Now.UNCHANGED) {
          c.decideAbsentBefore();
        }
        c.now = ModelNode.Now.PRESENT;
        c.type = ModelNode.FILE;
      }
      cur = c;
    }
  }

  private void rename(AuditEvent e, String user, long line) {
    ModelNode moving = require(e.src(), ModelNode.UNKNOWN_TYPE, user, line);
    if (moving == null) {
      return;
    }
    if (moving == root) {
      inconsistent(line, "rename of the root");
      return;
    }
    ModelNode target = walk(e.dst(), null);
    if (target == moving) {
      return; // onto itself: HDFS answers true and changes nothing
    }
    ModelNode newParent;
    String newName;
    if (!e.renameWithOptions() && target.now == ModelNode.Now.PRESENT) {
      if (target.type == ModelNode.FILE) {
        inconsistent(line, "rename onto an existing file");
        return;
      }
      // FileSystem.rename into an existing directory.
      target.type = ModelNode.DIRECTORY;
      newParent = target;
      newName = moving.name;
      ModelNode inside = target.child(newName, older::add);
      if (inside.now == ModelNode.Now.PRESENT) {
        inconsistent(line, "rename into a directory that holds the name");
        return;
      }
      inside.decideAbsentBefore();
    } else {
      if (target.now == ModelNode.Now.UNCHANGED) {
        target.decideAbsentBefore(); // the usual reading: the destination was free (hadoop fs -put, committers)
      }
      newParent = require(parentOf(e.dst()), ModelNode.DIRECTORY, user, line);
      newName = nameOf(e.dst());
    }
    if (newParent == null) {
      return;
    }
    for (ModelNode n = newParent; n != null; n = n.parent) {
      if (n == moving) {
        inconsistent(line, "rename into its own subtree");
        return;
      }
    }
    need(moving.parent, user, EntryAccess.WRITE | EntryAccess.EXECUTE, false);
    need(newParent, user, EntryAccess.WRITE | EntryAccess.EXECUTE, false);
    reveal(moving, e, true);
    moving.removeFromParent();
    moving.name = newName;
    newParent.put(moving);
  }

  /** A refused record: note where the refusal may come from, to reproduce it once the trace is read. */
  private void refused(AuditEvent e) {
    List<AccessInference.Site> sites = new ArrayList<>();
    ModelNode dependsOn = null;
    boolean[] traceModes = {false};
    ModelNode target = siteChain(e.command() == Command.CONCAT ? e.dst() : e.src(), traceModes);
    Command c = e.command();
    if (c == Command.OPEN) {
      // HDFS answers an open of a missing file with FileNotFoundException, unaudited, even where
      // the user may not traverse: an audited refused open names a file that exists.
      if (target.now == ModelNode.Now.ABSENT) {
        inconsistent(e.line(), "refused open of a path the trace shows missing");
      } else if (target.now == ModelNode.Now.UNCHANGED) {
        target.decidePresentBefore();
      }
      if (target.type == ModelNode.UNKNOWN_TYPE) {
        target.becomeFile();
      }
    }
    if (c == Command.DELETE) {
      if (target.now == ModelNode.Now.ABSENT) {
        return; // nothing to delete: HDFS answers false and audits allowed=false
      }
      if (target.now == ModelNode.Now.UNCHANGED) {
        target.refusedDelete = true;
        dependsOn = target;
      }
    }
    int targetBits = switch (c) {
      case OPEN -> EntryAccess.READ;
      case LIST_STATUS, CONTENT_SUMMARY -> EntryAccess.READ | EntryAccess.EXECUTE;
      case SET_PERMISSION, SET_OWNER -> EntryAccess.OWN;
      case SET_TIMES, SET_REPLICATION, APPEND, TRUNCATE, CONCAT -> EntryAccess.WRITE;
      default -> 0;
    };
    if (targetBits != 0 && target.now != ModelNode.Now.ABSENT) {
      sites.add(new AccessInference.Site(target, targetBits));
    }
    if (targetBits != EntryAccess.OWN) {
      boolean writesParent = c == Command.MKDIRS || c == Command.CREATE || c == Command.DELETE || c == Command.RENAME;
      for (ModelNode n = target.parent; n != null && n.parent != null; n = n.parent) {
        if (n.now == ModelNode.Now.ABSENT) {
          continue;
        }
        sites.add(new AccessInference.Site(n, writesParent ? EntryAccess.WRITE | EntryAccess.EXECUTE : EntryAccess.EXECUTE));
        writesParent = false;
      }
      if (c == Command.RENAME) {
        ModelNode dstParent = siteChain(parentOf(e.dst()), traceModes);
        if (dstParent.now != ModelNode.Now.ABSENT && dstParent.parent != null) {
          sites.add(Math.min(1, sites.size()), new AccessInference.Site(dstParent, EntryAccess.WRITE));
        }
      }
    }
    sites.removeIf(s -> !mayBeOlder(s.node()) || s.node().access != null && s.node().access.changed);
    access.add(new AccessInference.Refusal(e.line(), e.user(), sites, dependsOn, traceModes[0]));
  }

  /** The node at {@code path}, noting whether an entry on the way has modes the trace set. */
  private ModelNode siteChain(String path, boolean[] traceModes) {
    ModelNode n = walk(path, null);
    for (ModelNode a = n; a != null; a = a.parent) {
      if (a.now == ModelNode.Now.PRESENT && (!mayBeOlder(a) || a.access != null && a.access.changed)) {
        traceModes[0] = true;
      }
    }
    return n;
  }

  private static boolean mayBeOlder(ModelNode n) {
    return n.before == ModelNode.Before.PRESENT || n.before == ModelNode.Before.UNDECIDED;
  }

  private void need(ModelNode n, String user, int bits, boolean target) {
    if (n != null && n != root && mayBeOlder(n) && (n.access == null || !n.access.changed)) {
      n.access().need(user, bits, target);
    }
  }

  /** What a record's {@code perm=} (owner:group:mode after the call) says about an entry that may be older. */
  private void reveal(ModelNode n, AuditEvent e, boolean withMode) {
    if (n != null && e.perm() != null && mayBeOlder(n) && (n.access == null || !n.access.changed)) {
      revealPerm(n, e.perm(), withMode);
    }
  }

  private static void revealPerm(ModelNode n, String perm, boolean withMode) {
    String[] parts = perm.split(":");
    if (parts.length != 3 || parts[2].length() != 9) {
      return;
    }
    EntryAccess a = n.access();
    if (a.revealedOwner == null) {
      a.revealedOwner = parts[0];
      a.revealedGroup = parts[1];
    }
    if (withMode && a.revealedMode < 0) {
      a.revealedMode = Modes.parse(parts[2]);
    }
  }

  private void markAbsent(long line) {
    if (line >= 0 && line <= Integer.MAX_VALUE) {
      absentProbes.set((int) line);
    } else {
      absentProbesBeyondInt.add(line);
    }
  }

  private void inconsistent(long line, String reason) {
    inconsistencies.merge(reason, 1L, Long::sum);
    notes.putIfAbsent(line, "the trace does not explain it: " + reason);
  }

  /** Entries to build, parents before children. Finishes the plan: decides what the trace left open. */
  public List<Entry> entries() {
    if (entries == null) {
      PlanDecisions.decideWhatTheTraceLeftOpen(older, inferences);
      for (int i = 0; i < pendingNodes.size(); i++) {
        if (pendingNodes.get(i).before == ModelNode.Before.ABSENT) {
          markAbsent(pendingLines[i]);
        }
      }
      pendingNodes.clear();
      pendingLines = new long[0];
      Set<String> supers = new TreeSet<>(superusers);
      supers.addAll(loginUsers);
      access.resolve(supers, notes, inferences);
      entries = PlanDecisions.entries(older, supers, inferences);
    }
    return entries;
  }

  /** What the record should do when replayed on the pre-created namespace. */
  public Expectation expected(AuditEvent e) {
    entries();
    if (!e.allowed()) {
      return Expectation.REFUSAL;
    }
    if (e.command() == Command.GETFILEINFO || e.command() == Command.LIST_STATUS) {
      long l = e.line();
      boolean absent = l >= 0 && l <= Integer.MAX_VALUE ? absentProbes.get((int) l) : absentProbesBeyondInt.contains(l);
      return absent ? Expectation.NOT_FOUND : Expectation.SUCCESS;
    }
    return Expectation.SUCCESS;
  }

  /** Why the model may not reproduce a record's outcome (an unreproducible refusal, an unexplained call), or null. */
  public String note(long line) {
    entries();
    return notes.get(line);
  }

  /** Successful calls the model could not explain (the trace misses their cause), by reason. */
  public Map<String, Long> inconsistencies() {
    return inconsistencies;
  }

  /** What the plan assumed where the trace does not tell, and how refusals were reproduced, with counts. */
  public Map<String, Long> inferences() {
    entries();
    return inferences;
  }

  /** Trace users shown acting as superusers (giving entries away): replayed as the replaying user. */
  public Set<String> superusers() {
    return superusers;
  }

  /** Every user the trace names. */
  public Set<String> users() {
    return users;
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

  static Comparator<Entry> parentsFirst() {
    return Comparator.comparingInt(Entry::depth).thenComparing(Entry::path);
  }
}
