package org.indexfs.hadoop.imports;

import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.permission.AclEntry;

/**
 * One directory or file of a namespace being imported, as its NameNode has it (a live listing or
 * an fsimage). {@code relPath} is below the imported directory ("" for that directory itself).
 * The attributes the bulk entry cannot carry (ACL, xattrs, quotas, storage policy, snapshottable)
 * are applied after the ingest, for the entries that have them.
 */
final class ImportedEntry {
  String relPath;
  boolean directory;
  String owner;
  String group;
  /** Mode bits with the sticky bit (01777), no ACL bit. */
  short permission;
  long mtime;
  long atime;
  short replication;
  long blockSize;
  long length;
  /** The extended ACL entries (access and default), as HDFS's getAclStatus lists them; null: none. */
  List<AclEntry> acl;
  /** Prefixed name ("user.x") → value; null: none. */
  Map<String, byte[]> xattrs;
  long nsQuota = -1;
  long ssQuota = -1;
  /** The entry's own storage policy name; null: none set on it. */
  String storagePolicy;
  boolean snapshottable;
  /** Names of the directory's snapshots on the NameNode (not carried into IndexFS). */
  List<String> snapshots = List.of();

  boolean hasExtras() {
    return acl != null || xattrs != null || nsQuota >= 0 || ssQuota >= 0 || storagePolicy != null || snapshottable;
  }

  static String child(String parentRel, String name) {
    return parentRel.isEmpty() ? name : parentRel + "/" + name;
  }
}
