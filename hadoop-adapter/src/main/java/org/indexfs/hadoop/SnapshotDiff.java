package org.indexfs.hadoop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReport;
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReport.DiffReportEntry;
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReport.DiffType;

/**
 * {@code getSnapshotDiffReport} (issue 17): what changed under a snapshottable directory between
 * two snapshots, or a snapshot and now ({@code ""} or {@code "."}), as HDFS reports it — entries
 * matched by inode id, so a moved entry is one {@code R}, a new or removed subtree one {@code +} or
 * {@code -} at its top, and a directory whose children changed (or whose attributes did) an
 * {@code M}, followed by its children's entries. Both trees are read through listings: the cost is
 * a walk of the subtree (HDFS keeps the differences themselves).
 */
final class SnapshotDiff {
  private record Node(long id, long parent, String rel, FileStatus status) {
    String name() {
      return status.getPath().getName();
    }
  }

  private SnapshotDiff() {}

  static SnapshotDiffReport report(ExtendedNamespace fs, Path dir, String from, String to) throws IOException {
    long fromAt = createdAt(fs, dir, from);
    long toAt = createdAt(fs, dir, to);
    // HDFS computes the diff from the earlier to the later and inverts it when asked backwards.
    boolean backwards = fromAt > toAt || (fromAt == toAt && from.compareTo(to) > 0);
    List<DiffReportEntry> entries = forward(fs, dir, backwards ? to : from, backwards ? from : to);
    if (backwards) {
      entries = entries.stream().map(SnapshotDiff::inverted).toList();
    }
    return new SnapshotDiffReport(fs.pathOfForDiff(dir), from, to, entries);
  }

  private static DiffReportEntry inverted(DiffReportEntry e) {
    return switch (e.getType()) {
      case CREATE -> new DiffReportEntry(DiffType.DELETE, e.getSourcePath());
      case DELETE -> new DiffReportEntry(DiffType.CREATE, e.getSourcePath());
      case RENAME -> new DiffReportEntry(DiffType.RENAME, e.getTargetPath(), e.getSourcePath());
      default -> e;
    };
  }

  /** When snapshot {@code name} was taken (now: the latest), refused as HDFS refuses a missing one. */
  private static long createdAt(ExtendedNamespace fs, Path dir, String name) throws IOException {
    if (name == null || name.isEmpty() || name.equals(".")) {
      return Long.MAX_VALUE;
    }
    try {
      return fs.getFileStatus(new Path(dir, ".snapshot/" + name)).getModificationTime();
    } catch (java.io.FileNotFoundException e) {
      throw new org.apache.hadoop.ipc.RemoteException("org.apache.hadoop.hdfs.protocol.SnapshotException",
          "Cannot find the snapshot of directory " + fs.pathOfForDiff(dir) + " with name " + name);
    }
  }

  private static List<DiffReportEntry> forward(ExtendedNamespace fs, Path dir, String from, String to) throws IOException {
    Map<Long, Node> before = walk(fs, tree(dir, from));
    Map<Long, Node> after = walk(fs, tree(dir, to));
    TreeMap<String, List<DiffReportEntry>> byDir = new TreeMap<>(); // a changed entry's path (later tree) → what follows it
    TreeSet<String> modified = new TreeSet<>();
    for (Node b : before.values()) {
      Node a = after.get(b.id());
      if (a == null) {
        if (after.containsKey(b.parent())) {
          String parent = after.get(b.parent()).rel();
          modified.add(parent);
          children(byDir, parent).add(new DiffReportEntry(DiffType.DELETE, bytes(b.rel())));
        }
        continue;
      }
      if (b.parent() != a.parent() || !b.name().equals(a.name())) {
        Node oldParent = after.get(b.parent());
        if (oldParent != null) {
          modified.add(oldParent.rel());
          children(byDir, oldParent.rel()).add(new DiffReportEntry(DiffType.RENAME, bytes(b.rel()), bytes(a.rel())));
        }
        if (before.containsKey(a.parent())) {
          modified.add(after.get(a.parent()).rel());
        }
      }
      if (changed(b, a)) {
        modified.add(a.rel());
      }
    }
    for (Node a : after.values()) {
      if (!before.containsKey(a.id()) && before.containsKey(a.parent())) {
        String parent = after.get(a.parent()).rel();
        modified.add(parent);
        children(byDir, parent).add(new DiffReportEntry(DiffType.CREATE, bytes(a.rel())));
      }
    }
    List<DiffReportEntry> entries = new ArrayList<>();
    for (String m : modified) {
      entries.add(new DiffReportEntry(DiffType.MODIFY, bytes(m)));
      List<DiffReportEntry> below = byDir.get(m);
      if (below != null) {
        below.sort((x, y) -> order(x) != order(y) ? Integer.compare(order(x), order(y))
            : new String(x.getSourcePath(), StandardCharsets.UTF_8).compareTo(new String(y.getSourcePath(), StandardCharsets.UTF_8)));
        entries.addAll(below);
      }
    }
    return entries;
  }

  /** Created first, then deleted and renamed ones, as HDFS's children diffs list them. */
  private static int order(DiffReportEntry e) {
    return e.getType() == DiffType.CREATE ? 0 : 1;
  }

  private static List<DiffReportEntry> children(Map<String, List<DiffReportEntry>> byDir, String dir) {
    return byDir.computeIfAbsent(dir, k -> new ArrayList<>());
  }

  /** The snapshot's root, or the directory itself for "" / "." (now). */
  private static Path tree(Path dir, String name) {
    return name == null || name.isEmpty() || name.equals(".") ? dir : new Path(dir, ".snapshot/" + name);
  }

  /** Attributes HDFS keeps per snapshot: a file's length, times, mode, owner, group, replication; a directory's mode, owner, group. */
  private static boolean changed(Node b, Node a) {
    FileStatus x = b.status();
    FileStatus y = a.status();
    boolean attrs = !x.getPermission().equals(y.getPermission()) || !x.getOwner().equals(y.getOwner())
        || !x.getGroup().equals(y.getGroup());
    if (x.isDirectory()) {
      return attrs;
    }
    return attrs || x.getLen() != y.getLen() || x.getModificationTime() != y.getModificationTime()
        || x.getReplication() != y.getReplication();
  }

  private static byte[] bytes(String rel) {
    return rel.getBytes(StandardCharsets.UTF_8);
  }

  /** Every entry below {@code root} by inode id, with its path relative to it; the root as "" under id 0. */
  private static Map<Long, Node> walk(ExtendedNamespace fs, Path root) throws IOException {
    Map<Long, Node> out = new HashMap<>();
    IndexFileStatus top = (IndexFileStatus) fs.getFileStatus(root);
    out.put(top.inodeId(), new Node(top.inodeId(), 0, "", top));
    List<Node> dirs = new ArrayList<>(List.of(out.get(top.inodeId())));
    while (!dirs.isEmpty()) {
      Node d = dirs.remove(dirs.size() - 1);
      RemoteIterator<FileStatus> it = fs.listStatusIterator(d.rel().isEmpty() ? root : new Path(root, d.rel()));
      while (it.hasNext()) {
        IndexFileStatus s = (IndexFileStatus) it.next();
        String rel = d.rel().isEmpty() ? s.getPath().getName() : d.rel() + "/" + s.getPath().getName();
        Node n = new Node(s.inodeId(), d.id(), rel, s);
        out.put(n.id(), n);
        if (s.isDirectory()) {
          dirs.add(n);
        }
      }
    }
    return out;
  }
}
