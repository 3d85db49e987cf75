package org.indexfs.hadoop.imports;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.BlockStoragePolicySpi;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;

/**
 * A live NameNode's namespace below one directory, walked breadth first with paged listings
 * ({@code listStatusIterator}: {@code dfs.ls.limit} entries per RPC). The NameNode protocol has no
 * batch call for the rest, so the walk also costs: one {@code getXAttrs} per entry, one
 * {@code getAclStatus} per entry that has an ACL, one {@code getQuotaUsage} per directory, one
 * listing of {@code .snapshot} per snapshottable directory. An fsimage import costs none of these.
 * Run as the NameNode's superuser, listings carry each entry's own storage policy.
 */
final class LiveWalk implements NamespaceSource {
  private final DistributedFileSystem dfs;
  private final Path root;
  private Map<Byte, String> policies;

  LiveWalk(DistributedFileSystem dfs, Path root) {
    this.dfs = dfs;
    this.root = root;
  }

  @Override
  public String describe() {
    return "live NameNode " + dfs.getUri() + ", directory " + root.toUri().getPath();
  }

  @Override
  public void walk(Sink sink) throws IOException {
    walkFrom("", sink);
  }

  /**
   * Hands entry {@code rel} (below the root; "" for the root) and everything below it to
   * {@code sink}; returns false, handing nothing, when it does not exist (an fsimage import reads
   * the paths changed since the image this way, docs/import.md).
   */
  boolean walkFrom(String rel, Sink sink) throws IOException {
    policies();
    FileStatus top;
    try {
      top = dfs.getFileStatus(pathOf(rel));
    } catch (java.io.FileNotFoundException gone) {
      return false;
    }
    if (top.isSymlink()) {
      throw new IOException("Symbolic link " + pathOf(rel) + ": IndexFS has no symbolic links; nothing was imported");
    }
    sink.accept(entry(rel, top));
    if (!top.isDirectory()) {
      return true;
    }
    ArrayDeque<String> dirs = new ArrayDeque<>();
    dirs.add(rel);
    while (!dirs.isEmpty()) {
      String dir = dirs.poll();
      RemoteIterator<FileStatus> it = dfs.listStatusIterator(pathOf(dir));
      while (it.hasNext()) {
        FileStatus st = it.next();
        String childRel = ImportedEntry.child(dir, st.getPath().getName());
        if (st.isSymlink()) {
          throw new IOException("Symbolic link " + pathOf(childRel) + ": IndexFS has no symbolic links; nothing was imported");
        }
        sink.accept(entry(childRel, st));
        if (st.isDirectory()) {
          dirs.add(childRel);
        }
      }
    }
    return true;
  }

  /** Hands entry {@code rel} alone (not what it holds) to {@code sink}; false when it does not exist. */
  boolean read(String rel, Sink sink) throws IOException {
    policies();
    FileStatus st;
    try {
      st = dfs.getFileStatus(pathOf(rel));
    } catch (java.io.FileNotFoundException gone) {
      return false;
    }
    sink.accept(entry(rel, st));
    return true;
  }

  private void policies() throws IOException {
    if (policies == null) {
      policies = new HashMap<>();
      for (BlockStoragePolicySpi p : dfs.getAllStoragePolicies()) {
        policies.put(((BlockStoragePolicy) p).getId(), p.getName());
      }
    }
  }

  private Path pathOf(String rel) {
    return rel.isEmpty() ? root : new Path(root, rel);
  }

  private ImportedEntry entry(String rel, FileStatus st) throws IOException {
    Path p = pathOf(rel);
    ImportedEntry e = new ImportedEntry();
    e.relPath = rel;
    e.directory = st.isDirectory();
    e.owner = st.getOwner();
    e.group = st.getGroup();
    e.permission = (short) (st.getPermission().toShort() & 01777);
    e.mtime = st.getModificationTime();
    e.atime = st.getAccessTime();
    if (!e.directory) {
      e.replication = st.getReplication();
      e.blockSize = st.getBlockSize();
      e.length = st.getLen();
    }
    if (st instanceof HdfsFileStatus h && h.getStoragePolicy() != HdfsConstants.BLOCK_STORAGE_POLICY_ID_UNSPECIFIED) {
      e.storagePolicy = policies.get(h.getStoragePolicy());
    }
    if (st.hasAcl()) {
      e.acl = new ArrayList<>(dfs.getAclStatus(p).getEntries());
    }
    Map<String, byte[]> x = dfs.getXAttrs(p);
    if (!x.isEmpty()) {
      e.xattrs = new HashMap<>(x);
    }
    if (e.directory) {
      QuotaUsage q = dfs.getQuotaUsage(p);
      e.nsQuota = q.getQuota() >= 0 ? q.getQuota() : -1;
      e.ssQuota = q.getSpaceQuota() >= 0 ? q.getSpaceQuota() : -1;
      e.snapshottable = st.isSnapshotEnabled();
      if (e.snapshottable) {
        List<String> names = new ArrayList<>();
        for (FileStatus s : dfs.listStatus(new Path(p, HdfsConstants.DOT_SNAPSHOT_DIR))) {
          names.add(s.getPath().getName());
        }
        e.snapshots = names;
      }
    }
    return e;
  }
}
