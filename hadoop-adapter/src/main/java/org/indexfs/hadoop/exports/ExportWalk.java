package org.indexfs.hadoop.exports;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus;
import org.indexfs.client.DirectoryListing;
import org.indexfs.hadoop.IndexFileSystem;

/**
 * Reads an IndexFS subtree for export, parents before children: entries come from the servers'
 * paged listings (one RPC per page, never one per entry); what a listing does not carry costs one
 * call per entry (xattrs, own storage policy), per directory (quotas) or per entry that has it (ACL).
 */
final class ExportWalk {
  private final IndexFileSystem ifs;
  private final String root;

  ExportWalk(IndexFileSystem ifs, String root) {
    this.ifs = ifs;
    this.root = root;
  }

  List<ExportedEntry> walk() throws IOException {
    Set<String> snapshottable = new HashSet<>();
    SnapshottableDirectoryStatus[] all = ifs.getSnapshottableDirListing();
    for (SnapshottableDirectoryStatus d : all == null ? new SnapshottableDirectoryStatus[0] : all) {
      snapshottable.add(d.getFullPath().toUri().getPath());
    }
    List<ExportedEntry> out = new ArrayList<>();
    ExportedEntry top = new ExportedEntry("", ifs.client().getFileStatus(root));
    out.add(extras(top, snapshottable));
    ArrayDeque<String> dirs = new ArrayDeque<>();
    dirs.add("");
    while (!dirs.isEmpty()) {
      String rel = dirs.poll();
      DirectoryListing listing = ifs.client().list(pathOf(rel));
      while (listing.hasNext()) {
        org.indexfs.proto.FileStatus s = listing.next();
        ExportedEntry e = extras(new ExportedEntry(ExportedEntry.child(rel, s.getName()), s), snapshottable);
        out.add(e);
        if (e.directory()) {
          dirs.add(e.relPath);
        }
      }
    }
    return out;
  }

  String pathOf(String rel) {
    return rel.isEmpty() ? root : root.equals("/") ? "/" + rel : root + "/" + rel;
  }

  private ExportedEntry extras(ExportedEntry e, Set<String> snapshottable) throws IOException {
    String path = pathOf(e.relPath);
    Path p = new Path(path);
    if (e.status.getHasAcl()) {
      e.acl = ifs.getAclStatus(p).getEntries();
    }
    e.xattrs = ifs.getXAttrs(p);
    if (ifs.client().storagePolicyId(path, false) != 0) {
      e.storagePolicy = ifs.getStoragePolicy(p).getName();
    }
    if (e.directory()) {
      QuotaUsage q = ifs.getQuotaUsage(p);
      e.nsQuota = q.getQuota();
      e.ssQuota = q.getSpaceQuota();
      e.snapshottable = snapshottable.contains(path);
    }
    return e;
  }
}
