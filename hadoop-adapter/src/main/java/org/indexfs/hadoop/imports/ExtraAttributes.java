package org.indexfs.hadoop.imports;

import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclUtil;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.indexfs.hadoop.IndexFileSystem;

/**
 * The attributes a bulk entry does not carry (ACLs, xattrs, quotas, storage policies,
 * snapshottable), set after the ingest with one call each on the entries that have them (few, in
 * real namespaces), and the imported directory's own attributes, set last so that nothing the
 * import does to it moves its times.
 */
final class ExtraAttributes {
  private final IndexFileSystem ifs;
  private final Path target;

  ExtraAttributes(IndexFileSystem ifs, Path target) {
    this.ifs = ifs;
    this.target = target;
  }

  /** Returns how many entries needed calls. */
  long apply(ImportedEntry root, List<ImportedEntry> extras) throws IOException {
    long n = 0;
    for (ImportedEntry e : extras) {
      Path p = e.relPath.isEmpty() ? target : new Path(target, e.relPath);
      if (e.acl != null) {
        ifs.setAcl(p, AclUtil.getAclFromPermAndEntries(new FsPermission(e.permission), e.acl));
      }
      if (e.xattrs != null) {
        for (Map.Entry<String, byte[]> x : e.xattrs.entrySet()) {
          ifs.setXAttr(p, x.getKey(), x.getValue(), EnumSet.of(XAttrSetFlag.CREATE));
        }
      }
      if (e.nsQuota >= 0 || e.ssQuota >= 0) {
        ifs.setQuota(p, e.nsQuota >= 0 ? e.nsQuota : HdfsConstants.QUOTA_DONT_SET,
            e.ssQuota >= 0 ? e.ssQuota : HdfsConstants.QUOTA_DONT_SET);
      }
      if (e.storagePolicy != null) {
        ifs.setStoragePolicy(p, e.storagePolicy);
      }
      if (e.snapshottable) {
        ifs.allowSnapshot(p);
      }
      n++;
    }
    ifs.setOwner(target, root.owner, root.group);
    if (root.acl == null) {
      ifs.setPermission(target, new FsPermission(root.permission));
    }
    ifs.setTimes(target, root.mtime, -1);
    return n;
  }
}
