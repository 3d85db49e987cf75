package org.indexfs.hadoop.exports;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclUtil;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.OpenFilesIterator;
import org.apache.hadoop.security.AccessControlException;
import org.indexfs.client.admin.AdminClient;
import org.indexfs.hadoop.IndexFileSystem;

/**
 * {@code bin/indexfs export} (issue 34, docs/export.md): an IndexFS directory goes back into the
 * data tier's NameNode namespace. Each file whose bytes are a data object is that object moved with
 * one HDFS rename (no byte copied); an inline file is written anew (its bytes exist nowhere else).
 * The IndexFS subtree is removed last; by then its objects are no longer at their object paths, so
 * the reclamation the delete records finds nothing to remove. Any failure before that moves every
 * moved object back, removes the HDFS target and leaves IndexFS untouched.
 */
public final class Exporter {
  /** What an export did, for the operator (and the tests). */
  public record Report(long directories, long filesMoved, long bytesMoved, long filesCopied, long bytesCopied,
      long millis) {}

  private final Configuration conf;
  private final IndexFileSystem ifs;

  public Exporter(Configuration conf, IndexFileSystem ifs) {
    this.conf = conf;
    this.ifs = ifs;
  }

  /** Exports IndexFS directory {@code from} to {@code to} (hdfs://nn/path, on the data tier's NameNode). */
  public Report run(Path from, URI to) throws IOException {
    if (!"hdfs".equals(to.getScheme()) || to.getPath() == null || to.getPath().isEmpty()) {
      throw new IllegalArgumentException("--to needs an hdfs://namenode/path URI, not " + to);
    }
    try (DistributedFileSystem dfs = (DistributedFileSystem) FileSystem.newInstance(
        URI.create(to.getScheme() + "://" + to.getAuthority()), conf)) {
      return run(dfs, from, new Path(to.getPath()));
    }
  }

  private Report run(DistributedFileSystem dfs, Path from, Path target) throws IOException {
    long start = System.currentTimeMillis();
    String source = ifs.makeQualified(from).toUri().getPath();
    if (source.equals("/")) {
      throw new IOException("Cannot export /: export a directory below the root");
    }
    Path dataRoot = dataRoot(dfs);
    String t = target.toUri().getPath();
    String d = dataRoot.toUri().getPath();
    if (t.equals("/") || t.equals(d) || t.startsWith(d + "/") || d.startsWith(t + "/")) {
      throw new IOException("Cannot export to " + t + ": it is the root, or holds or lies in IndexFS's data tier " + d);
    }
    superusers(dfs);
    if (dfs.exists(target)) {
      throw new FileAlreadyExistsException("Export target " + dfs.getUri() + t + " exists: an export makes a new directory");
    }
    if (!ifs.getFileStatus(from).isDirectory()) {
      throw new IOException("Cannot export " + source + ": not a directory");
    }
    List<ExportedEntry> entries = new ExportWalk(ifs, source).walk();
    List<String> open = new ArrayList<>();
    for (ExportedEntry e : entries) {
      if (!e.directory() && e.status.getUnderConstruction() && open.size() < 10) {
        open.add(source + "/" + e.relPath);
      }
    }
    if (!open.isEmpty()) {
      throw new IOException("Cannot export " + source + ": files in it are open for write (" + String.join(", ", open)
          + "); close them or recover their leases, then export");
    }
    Moves moves = new Moves(dfs, dataRoot, target);
    try {
      Report r = rebuild(dfs, entries, moves, ifs, source, start);
      if (!ifs.delete(from, true)) {
        throw new IOException("IndexFS did not delete " + source);
      }
      return new Report(r.directories, r.filesMoved, r.bytesMoved, r.filesCopied, r.bytesCopied,
          System.currentTimeMillis() - start);
    } catch (IOException | RuntimeException e) {
      moves.rollBack();
      throw new IOException("Export of " + source + " to " + dfs.getUri() + t + " failed, IndexFS is as it was ("
          + moves.count() + " moved objects put back, the HDFS target removed): " + e.getMessage(), e);
    }
  }

  private static Report rebuild(DistributedFileSystem dfs, List<ExportedEntry> entries, Moves moves, IndexFileSystem ifs,
      String source, long start) throws IOException {
    long dirs = 0;
    long moved = 0;
    long movedBytes = 0;
    long copied = 0;
    long copiedBytes = 0;
    for (ExportedEntry e : entries) {
      Path p = moves.at(e.relPath);
      if (e.directory()) {
        moves.mkdir(p);
        dirs++;
      } else if (e.dataObject() != null) {
        moves.move(e.dataObject(), p, e.status.getLength(), e.relPath, !e.xattrs.isEmpty());
        moved++;
        movedBytes += e.status.getLength();
      } else {
        try (InputStream in = ifs.open(new Path(source + "/" + e.relPath));
            OutputStream out = dfs.create(p, FsPermission.getFileDefault(), false, 4096, (short) e.status.getReplication(),
                e.status.getBlockSize(), null)) {
          in.transferTo(out);
        }
        copied++;
        copiedBytes += e.status.getLength();
      }
      if (!e.directory()) {
        attributes(dfs, p, e);
        dfs.setReplication(p, (short) e.status.getReplication());
        dfs.setTimes(p, e.status.getMtime(), e.status.getAtime());
      }
    }
    // Directories last, deepest first: what went into them moved their mtimes.
    for (int i = entries.size() - 1; i >= 0; i--) {
      ExportedEntry e = entries.get(i);
      if (e.directory()) {
        Path p = moves.at(e.relPath);
        attributes(dfs, p, e);
        if (e.nsQuota >= 0 || e.ssQuota >= 0) {
          dfs.setQuota(p, e.nsQuota >= 0 ? e.nsQuota : HdfsConstants.QUOTA_DONT_SET,
              e.ssQuota >= 0 ? e.ssQuota : HdfsConstants.QUOTA_DONT_SET);
        }
        if (e.snapshottable) {
          dfs.allowSnapshot(p);
        }
        dfs.setTimes(p, e.status.getMtime(), -1);
      }
    }
    return new Report(dirs, moved, movedBytes, copied, copiedBytes, System.currentTimeMillis() - start);
  }

  /** Owner, group, mode, ACL, xattrs, own storage policy: the same for files and directories. */
  private static void attributes(DistributedFileSystem dfs, Path p, ExportedEntry e) throws IOException {
    dfs.setOwner(p, e.status.getOwner(), e.status.getGroup());
    FsPermission perm = new FsPermission((short) (e.status.getPermission() & 01777));
    dfs.setPermission(p, perm);
    if (e.acl != null && !e.acl.isEmpty()) {
      dfs.setAcl(p, AclUtil.getAclFromPermAndEntries(perm, e.acl));
    }
    for (Map.Entry<String, byte[]> x : e.xattrs.entrySet()) {
      dfs.setXAttr(p, x.getKey(), x.getValue(), EnumSet.of(XAttrSetFlag.CREATE, XAttrSetFlag.REPLACE));
    }
    if (e.storagePolicy != null) {
      dfs.setStoragePolicy(p, e.storagePolicy);
    }
  }

  /** HDFS's superuser check on both sides before anything else: each side's own administrative call. */
  private void superusers(DistributedFileSystem dfs) throws IOException {
    try {
      dfs.listOpenFiles(EnumSet.of(OpenFilesIterator.OpenFilesType.ALL_OPEN_FILES), "/").hasNext();
    } catch (AccessControlException e) {
      throw new IOException("Export needs the HDFS superuser of " + dfs.getUri() + ": " + e.getMessage(), e);
    }
    try {
      new AdminClient(ifs.client()).report(0);
    } catch (IOException e) {
      if (e instanceof AccessControlException || String.valueOf(e.getMessage()).contains("Superuser")
          || String.valueOf(e.getMessage()).contains("superuser")) {
        throw new IOException("Export needs the IndexFS superuser of " + ifs.getUri() + ": " + e.getMessage(), e);
      }
      throw e;
    }
  }

  /** The data tier's root, which must be on the target's NameNode: its objects are moved where they are. */
  private Path dataRoot(DistributedFileSystem dfs) throws IOException {
    String dataUri = ifs.client().serverInfo().getDataUri();
    if (dataUri.isEmpty()) {
      throw new IOException("This IndexFS cluster has no data tier (indexfs.data.uri): nothing to move back to HDFS");
    }
    URI data = URI.create(dataUri);
    URI dataNn = FileSystem.get(data, conf).getUri();
    if (!dataNn.equals(dfs.getUri())) {
      throw new IOException("The target " + dfs.getUri() + " is not the NameNode of IndexFS's data tier (" + dataUri
          + "): an export without copying needs the target on that NameNode (name it as indexfs.data.uri does)");
    }
    return new Path(dataNn.toString() + data.getPath());
  }
}
