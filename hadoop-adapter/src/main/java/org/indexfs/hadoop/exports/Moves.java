package org.indexfs.hadoop.exports;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * The HDFS side of an export and its undo: every object moved under the target is remembered with
 * the attributes it had, so a failure can rename it back to its object path as it was before the
 * target is removed (an object left under the target would be deleted with it).
 */
final class Moves {
  /** {@code acl}: the object's own extended ACL (null: none); {@code xattrs}: its own, when the export sets some. */
  private record Moved(Path object, Path exported, FileStatus before, List<AclEntry> acl, Map<String, byte[]> xattrs) {}

  private final DistributedFileSystem dfs;
  private final Path dataRoot;
  private final Path target;
  private final List<Moved> moved = new ArrayList<>();
  private boolean targetMade;

  Moves(DistributedFileSystem dfs, Path dataRoot, Path target) {
    this.dfs = dfs;
    this.dataRoot = dataRoot;
    this.target = target;
  }

  Path at(String rel) {
    return rel.isEmpty() ? target : new Path(target, rel);
  }

  void mkdir(Path p) throws IOException {
    if (p.equals(target)) {
      if (dfs.exists(target)) { // made since the check: someone else's, not ours to remove
        throw new IOException("Export target " + target + " appeared while exporting");
      }
      targetMade = true;
    }
    if (!dfs.mkdirs(p)) {
      throw new IOException("HDFS refused to make " + p);
    }
  }

  /** One HDFS rename: the object's blocks become the exported file's, nothing is copied. */
  void move(String object, Path exported, long length, String rel, boolean setsXAttrs) throws IOException {
    Path from = new Path(dataRoot, object);
    FileStatus before;
    try {
      before = dfs.getFileStatus(from);
    } catch (FileNotFoundException e) {
      throw new IOException("The data object " + from + " of " + rel + " is missing on HDFS", e);
    }
    if (before.isDirectory() || before.getLen() != length) {
      throw new IOException("The data object " + from + " of " + rel + " holds " + before.getLen() + " bytes, its entry "
          + length + ": refusing to export a file whose bytes are not all in its object");
    }
    // An imported object is the old HDFS file and may carry an ACL and xattrs of its own: kept for the undo.
    List<AclEntry> acl = before.hasAcl() ? dfs.getAclStatus(from).getEntries() : null;
    Map<String, byte[]> xattrs = setsXAttrs ? dfs.getXAttrs(from) : null;
    if (!dfs.rename(from, exported)) {
      throw new IOException("HDFS refused to rename " + from + " to " + exported);
    }
    moved.add(new Moved(from, exported, before, acl, xattrs));
  }

  int count() {
    return moved.size();
  }

  /** Puts every moved object back as it was, then removes the target; reports what it could not undo. */
  void rollBack() {
    List<String> stuck = new ArrayList<>();
    for (int i = moved.size() - 1; i >= 0; i--) {
      Moved m = moved.get(i);
      try {
        FileStatus b = m.before;
        dfs.setOwner(m.exported, b.getOwner(), b.getGroup());
        dfs.setPermission(m.exported, b.getPermission());
        if (m.acl != null) {
          dfs.setAcl(m.exported, AclUtil.getAclFromPermAndEntries(b.getPermission(), m.acl));
        } else {
          dfs.removeAcl(m.exported);
        }
        if (m.xattrs != null) {
          for (String x : dfs.getXAttrs(m.exported).keySet()) {
            if (!m.xattrs.containsKey(x)) {
              dfs.removeXAttr(m.exported, x);
            }
          }
          for (Map.Entry<String, byte[]> x : m.xattrs.entrySet()) {
            dfs.setXAttr(m.exported, x.getKey(), x.getValue(), EnumSet.of(XAttrSetFlag.CREATE, XAttrSetFlag.REPLACE));
          }
        }
        dfs.setReplication(m.exported, b.getReplication());
        dfs.setTimes(m.exported, b.getModificationTime(), b.getAccessTime());
        if (!dfs.rename(m.exported, m.object)) {
          throw new IOException("HDFS refused the rename back");
        }
      } catch (IOException e) {
        stuck.add("hdfs dfs -mv " + m.exported.toUri().getPath() + " " + m.object.toUri().getPath() + " (" + e.getMessage()
            + ")");
      }
    }
    if (!stuck.isEmpty()) {
      // The one state needing an operator: the target keeps those objects, so it is not removed.
      throw new IllegalStateException("Export failed and " + stuck.size() + " objects could not be moved back; run "
          + String.join("; ", stuck) + "; then remove " + target);
    }
    if (targetMade) {
      try {
        dfs.delete(target, true);
      } catch (IOException e) {
        System.err.println("export roll-back: could not remove " + target + ": " + e);
      }
    }
  }
}
