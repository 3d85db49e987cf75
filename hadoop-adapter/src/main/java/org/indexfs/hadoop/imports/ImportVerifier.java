package org.indexfs.hadoop.imports;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.fs.permission.AclStatus;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;

/**
 * {@code bin/indexfs import --verify}: walks an HDFS directory and an IndexFS directory side by side
 * and compares every entry (type, owner, group, mode, times, replication, block size, length, ACL,
 * xattrs, quotas, own storage policy, snapshottable), then {@code getFileChecksum} of a sample of
 * files on both sides. The summary is meant to be pasted in a change ticket.
 */
public final class ImportVerifier {
  /** What the comparison found; {@link #summary} is what the operator pastes. */
  public record Result(long directories, long files, long bytes, long acls, long xattrs, long quotas, long policies,
      long snapshottable, int sampled, int checksumsEqual, List<String> differences, String summary) {
    public boolean clean() {
      return differences.isEmpty() && sampled == checksumsEqual;
    }
  }

  private static final int SHOWN = 20;
  private final DistributedFileSystem hdfs;
  private final Path hdfsRoot;
  private final FileSystem ifs;
  private final Path target;
  private final int sample;
  private final List<String> differences = new ArrayList<>();
  private final List<String> sampledFiles = new ArrayList<>();
  private final Random random = new Random(34);
  private long directories;
  private long files;
  private long bytes;
  private long acls;
  private long xattrs;
  private long quotas;
  private long policies;
  private long snapshottable;

  public ImportVerifier(DistributedFileSystem hdfs, Path hdfsRoot, FileSystem ifs, Path target, int sample) {
    this.hdfs = hdfs;
    this.hdfsRoot = hdfsRoot;
    this.ifs = ifs;
    this.target = target;
    this.sample = sample;
  }

  /** IndexFS's snapshottable directories: its FileStatus does not carry HDFS's snapshot-enabled flag. */
  private final java.util.Set<String> indexSnapshottable = new java.util.HashSet<>();

  public Result run() throws IOException {
    if (ifs instanceof org.indexfs.hadoop.IndexFileSystem i) {
      org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus[] all = i.getSnapshottableDirListing();
      for (org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus d : all == null
          ? new org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus[0] : all) {
        indexSnapshottable.add(d.getFullPath().toUri().getPath());
      }
    }
    compare("", hdfs.getFileStatus(hdfsRoot), ifs.getFileStatus(target));
    ArrayDeque<String> dirs = new ArrayDeque<>();
    dirs.add("");
    while (!dirs.isEmpty()) {
      String rel = dirs.poll();
      Map<String, FileStatus> left = byName(hdfs.listStatus(at(hdfsRoot, rel)));
      Map<String, FileStatus> right = byName(ifs.listStatus(at(target, rel)));
      for (Map.Entry<String, FileStatus> l : left.entrySet()) {
        String child = ImportedEntry.child(rel, l.getKey());
        FileStatus r = right.remove(l.getKey());
        if (r == null) {
          differ(child, "only on HDFS");
          continue;
        }
        compare(child, l.getValue(), r);
        if (l.getValue().isDirectory() && r.isDirectory()) {
          dirs.add(child);
        }
      }
      right.keySet().forEach(name -> differ(ImportedEntry.child(rel, name), "only in IndexFS"));
    }
    int equal = 0;
    for (String f : sampledFiles) {
      FileChecksum a = hdfs.getFileChecksum(at(hdfsRoot, f));
      FileChecksum b = ifs.getFileChecksum(at(target, f));
      if (Objects.equals(a, b)) {
        equal++;
      } else {
        differ(f, "checksum " + a + " on HDFS, " + b + " in IndexFS");
      }
    }
    return new Result(directories, files, bytes, acls, xattrs, quotas, policies, snapshottable, sampledFiles.size(), equal,
        List.copyOf(differences), summary(equal));
  }

  private static Path at(Path root, String rel) {
    return rel.isEmpty() ? root : new Path(root, rel);
  }

  private static Map<String, FileStatus> byName(FileStatus[] list) {
    Map<String, FileStatus> m = new TreeMap<>();
    for (FileStatus s : list) {
      m.put(s.getPath().getName(), s);
    }
    return m;
  }

  private void differ(String rel, String what) {
    differences.add((rel.isEmpty() ? "." : rel) + ": " + what);
  }

  private void same(String rel, String attribute, Object hdfsValue, Object indexValue) {
    if (!Objects.equals(hdfsValue, indexValue)) {
      differ(rel, attribute + " " + hdfsValue + " on HDFS, " + indexValue + " in IndexFS");
    }
  }

  private void compare(String rel, FileStatus l, FileStatus r) throws IOException {
    Path lp = at(hdfsRoot, rel);
    Path rp = at(target, rel);
    if (l.isDirectory() != r.isDirectory()) {
      differ(rel, (l.isDirectory() ? "a directory" : "a file") + " on HDFS, not in IndexFS");
      return;
    }
    same(rel, "owner", l.getOwner(), r.getOwner());
    same(rel, "group", l.getGroup(), r.getGroup());
    same(rel, "permission", l.getPermission().toShort() & 01777, r.getPermission().toShort() & 01777);
    same(rel, "mtime", l.getModificationTime(), r.getModificationTime());
    if (l.isDirectory()) {
      directories++;
      QuotaUsage lq = hdfs.getQuotaUsage(lp);
      QuotaUsage rq = ifs.getQuotaUsage(rp);
      if (lq.getQuota() >= 0 || lq.getSpaceQuota() >= 0) {
        quotas++;
      }
      same(rel, "namespace quota", Math.max(-1, lq.getQuota()), Math.max(-1, rq.getQuota()));
      same(rel, "space quota", Math.max(-1, lq.getSpaceQuota()), Math.max(-1, rq.getSpaceQuota()));
      same(rel, "snapshottable", l.isSnapshotEnabled(),
          r.isSnapshotEnabled() || indexSnapshottable.contains(rp.toUri().getPath()));
      if (l.isSnapshotEnabled()) {
        snapshottable++;
      }
    } else {
      files++;
      bytes += l.getLen();
      same(rel, "length", l.getLen(), r.getLen());
      same(rel, "atime", l.getAccessTime(), r.getAccessTime());
      same(rel, "replication", l.getReplication(), r.getReplication());
      same(rel, "block size", l.getBlockSize(), r.getBlockSize());
      sampleFile(rel);
    }
    same(rel, "has ACL", l.hasAcl(), r.hasAcl());
    if (l.hasAcl() || r.hasAcl()) {
      acls++;
      AclStatus la = hdfs.getAclStatus(lp);
      AclStatus ra = ifs.getAclStatus(rp);
      same(rel, "ACL", la.getEntries(), ra.getEntries());
    }
    Map<String, byte[]> lx = hdfs.getXAttrs(lp);
    Map<String, byte[]> rx = ifs.getXAttrs(rp);
    if (!lx.isEmpty()) {
      xattrs++;
    }
    same(rel, "xattr names", new TreeMap<>(lx).keySet(), new TreeMap<>(rx).keySet());
    for (Map.Entry<String, byte[]> x : lx.entrySet()) {
      if (rx.containsKey(x.getKey()) && !Arrays.equals(x.getValue(), rx.get(x.getKey()))) {
        differ(rel, "xattr " + x.getKey() + " value");
      }
    }
    if (l instanceof HdfsFileStatus h && h.getStoragePolicy() != HdfsConstants.BLOCK_STORAGE_POLICY_ID_UNSPECIFIED) {
      policies++;
      same(rel, "storage policy", hdfs.getStoragePolicy(lp).getName(), ifs.getStoragePolicy(rp).getName());
    }
  }

  /** Reservoir sampling: every file equally likely, a fixed seed so a rerun checks the same files. */
  private void sampleFile(String rel) {
    if (sampledFiles.size() < sample) {
      sampledFiles.add(rel);
    } else if (sample > 0) {
      long k = (long) (random.nextDouble() * files);
      if (k < sample) {
        sampledFiles.set((int) k, rel);
      }
    }
  }

  private String summary(int equal) {
    StringBuilder b = new StringBuilder();
    b.append("IndexFS import verification, ").append(java.time.Instant.now()).append('\n');
    b.append("  HDFS      ").append(hdfs.getUri()).append(hdfsRoot.toUri().getPath()).append('\n');
    b.append("  IndexFS   ").append(ifs.makeQualified(target)).append('\n');
    b.append("  entries   ").append(directories).append(" directories, ").append(files).append(" files, ").append(bytes)
        .append(" bytes on each side (when clean)\n");
    b.append("  compared  type, owner, group, mode, mtime, file atime, replication, block size, length on every entry;\n");
    b.append("            ACLs on ").append(acls).append(", xattrs on ").append(xattrs).append(" entries; quotas on ")
        .append(quotas).append(" directories; own storage policy on ").append(policies).append(" entries; ")
        .append(snapshottable).append(" snapshottable directories\n");
    b.append("  checksums ").append(sampledFiles.size()).append(" files sampled (getFileChecksum on both sides), ")
        .append(equal).append(" equal\n");
    b.append("  differences ").append(differences.size()).append('\n');
    for (String d : differences.subList(0, Math.min(SHOWN, differences.size()))) {
      b.append("    ").append(d).append('\n');
    }
    if (differences.size() > SHOWN) {
      b.append("    ... ").append(differences.size() - SHOWN).append(" more\n");
    }
    b.append("  RESULT    ").append(differences.isEmpty() && equal == sampledFiles.size() ? "CLEAN" : "DIFFERENT").append('\n');
    return b.toString();
  }
}
