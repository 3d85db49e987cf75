package org.indexfs.hadoop.decoupled;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.AccessControlException;
import org.indexfs.client.IndexFsClient;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.FileStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Merges a checked-out copy back (Cudele's decoupled consistency, merged as DeltaFS publishes):
 * under a short SHARED_LOCALIZE grant of the root — other clients' changes inside wait, other
 * mergers share it — it (1) replays the copy's renames and deletes of checked-out entries on the
 * server, in the copy's order, and (2) writes what the copy made through the bulk-insertion path
 * (issue 13: one SST, one ingest) and publishes it, releasing the grant.
 *
 * <p>The rule, deterministic and independent of timing: <b>what the server side changed since
 * check-out wins</b>. A rename or delete of an entry that was deleted or replaced on the server is
 * not applied; a delete of a file whose length or mtime changed on the server is not applied; a
 * directory the copy deleted that holds entries the server side created since is kept (with those
 * entries); a name the copy made that the server holds now is the server's (issue 13's ingest
 * refuses it, two directories merge). Between two merging copies, issue 13's rule: the lowest
 * client id wins a file name, a directory beats a file. Every change not applied is in the
 * {@link MergeReport} by path and reason, and logged (by this client for replayed changes, by the
 * server for refused entries).
 */
final class Merge {
  private static final Logger LOG = LoggerFactory.getLogger(Merge.class);
  private static final String TAKEN = "the name was created on the server since check-out";

  private final Origin fs;
  private final IndexFsClient client;
  private final PrivateCopy copy;
  private final MergeReport report;

  Merge(Origin fs, PrivateCopy copy) {
    this.fs = fs;
    this.client = fs.client();
    this.copy = copy;
    this.report = new MergeReport(copy.root());
  }

  MergeReport run(FileStatus checkedOutRoot) throws IOException {
    long start = System.currentTimeMillis();
    String root = copy.root();
    FileStatus now = statOrNull(root);
    if (now == null || now.getInodeId() != checkedOutRoot.getInodeId()) {
      String why = (now == null ? "deleted" : "replaced") + " on the server since check-out";
      copy.changes().forEach(c -> conflict(c.path(), "not applied: " + root + " was " + why));
      copy.made().forEach(e -> conflict(e.getKey(), "not made: " + root + " was " + why));
      report.took(System.currentTimeMillis() - start);
      return report;
    }
    boolean bulk = true;
    try {
      fs.localize(new Path(root), true);
    } catch (UnsupportedOperationException e) {
      // A server that cannot localize it (before split directories could be): the copy's new
      // entries go in one call each, under the same rule.
      bulk = false;
      LOG.info("Merging {} without bulk insertion: {}", root, e.getMessage());
    }
    try {
      for (ServerChange c : copy.changes()) {
        replay(c);
      }
      for (Map.Entry<String, CopyNode> e : copy.made()) {
        make(e.getKey(), e.getValue());
      }
    } catch (IOException | RuntimeException e) {
      if (bulk) {
        try {
          fs.publish(new Path(root)); // what is staged goes in rather than waiting for the lease to run out
        } catch (IOException second) {
          e.addSuppressed(second);
        }
      }
      throw e;
    }
    List<String> refused = bulk ? fs.publish(new Path(root)) : List.of();
    for (String r : refused) {
      int colon = r.indexOf(": ");
      String reason = r.substring(colon + 2);
      conflict(r.substring(0, colon), "not made: " + (reason.startsWith("FILE_ALREADY_EXISTS")
          ? TAKEN + " (" + reason + ")" : reason));
    }
    report.applied(-refused.size());
    report.took(System.currentTimeMillis() - start);
    LOG.info("{}", report);
    return report;
  }

  private void conflict(String path, String reason) {
    LOG.warn("Merge of the copy of {} by client {}: {}: {}", copy.root(), client.caller().getClientId(), path, reason);
    report.conflict(path, reason);
  }

  private FileStatus statOrNull(String path) throws IOException {
    try {
      return client.getFileStatus(path);
    } catch (IndexFsException e) {
      if (e.code() == Code.FILE_NOT_FOUND) {
        return null;
      }
      throw e;
    }
  }

  /** One rename or delete of a checked-out entry, on the server, if that entry is still as checked out. */
  private void replay(ServerChange c) throws IOException {
    FileStatus now = statOrNull(c.path());
    String why = c.differs(now);
    boolean move = c.kind() == ServerChange.Kind.MOVE;
    if (why != null) {
      conflict(c.path(), (move ? "not renamed to " + c.to() : "not deleted") + ": " + why + "; the server's entry is kept");
      return;
    }
    if (now == null) {
      return; // a directory this merge made for a rename, never made: nothing to undo
    }
    if (move) {
      if (statOrNull(c.to()) != null) {
        conflict(c.path(), "not renamed to " + c.to() + ": that name was created on the server since check-out");
        return;
      }
      String parent = c.to().substring(0, Math.max(1, c.to().lastIndexOf('/')));
      if (statOrNull(parent) == null) {
        client.mkdirs(parent, FsPermission.getDirDefault().applyUMask(FsPermission.getUMask(fs.getConf())).toShort());
      }
      if (!client.rename(c.path(), c.to())) {
        conflict(c.path(), "not renamed to " + c.to() + ": the server refused the rename");
        return;
      }
    } else {
      try {
        client.delete(c.path(), false);
      } catch (IndexFsException e) {
        if (e.code() != Code.DIRECTORY_NOT_EMPTY) {
          throw e;
        }
        conflict(c.path(), "not deleted: it holds entries the server side created since check-out; kept");
        return;
      }
    }
    report.applied(1);
  }

  /** An entry the copy made, staged in the bulk insertion of the root (published at the end). */
  private void make(String path, CopyNode n) throws IOException {
    if (n.open) {
      // As a publish leaves files still open out (issue 13): their bytes are not final.
      conflict(path, "not made: it was still being written in the copy (its stream not closed) at the merge");
      return;
    }
    try {
      if (n.dir) {
        fs.mkdirs(new Path(path), new FsPermission((short) n.permission));
      } else {
        try (OutputStream out = fs.create(new Path(path), new FsPermission((short) n.permission), false, 4096,
            (short) n.replication, n.blockSize, null); InputStream in = n.bytes()) {
          in.transferTo(out);
        }
      }
      report.applied(1);
    } catch (FileAlreadyExistsException e) {
      conflict(path, "not made: " + TAKEN + " (" + e.getMessage() + ")");
    } catch (ParentNotDirectoryException | AccessControlException e) {
      conflict(path, "not made: " + e.getMessage());
    }
  }
}
