package org.indexfs.hadoop.exports;

import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.permission.AclEntry;

/**
 * One IndexFS entry to rebuild on HDFS, as the walk read it: the listing's status plus what a
 * listing does not carry (ACL, xattrs, quotas, own storage policy, snapshottable).
 */
final class ExportedEntry {
  final String relPath; // below the exported directory; "" for the directory itself
  final org.indexfs.proto.FileStatus status;
  List<AclEntry> acl; // null: no extended ACL
  Map<String, byte[]> xattrs = Map.of();
  long nsQuota = -1;
  long ssQuota = -1;
  String storagePolicy; // null: none of its own
  boolean snapshottable;

  ExportedEntry(String relPath, org.indexfs.proto.FileStatus status) {
    this.relPath = relPath;
    this.status = status;
  }

  boolean directory() {
    return status.getType() == org.indexfs.proto.FileType.DIRECTORY;
  }

  /** Null for an inline file (its bytes live in the entry) and for a directory. */
  String dataObject() {
    return status.getDataObject().isEmpty() ? null : status.getDataObject();
  }

  static String child(String rel, String name) {
    return rel.isEmpty() ? name : rel + "/" + name;
  }
}
