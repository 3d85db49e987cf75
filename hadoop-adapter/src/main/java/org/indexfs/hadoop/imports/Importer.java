package org.indexfs.hadoop.imports;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.NameNodeProxies;
import org.apache.hadoop.hdfs.protocol.OpenFileEntry;
import org.apache.hadoop.hdfs.protocol.OpenFilesIterator;
import org.apache.hadoop.hdfs.server.namenode.FsImageProto.NameSystemSection;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocol;
import org.apache.hadoop.ipc.RPC;
import org.indexfs.client.bulk.LocalSubtree;
import org.indexfs.common.schema.Inode;
import org.indexfs.hadoop.IndexFileSystem;

/**
 * {@code bin/indexfs import} (issue 34, DESIGN §18, docs/import.md): an HDFS directory becomes an
 * IndexFS directory without copying a byte. The directory is moved, with one HDFS rename, under the
 * data tier's {@code imported/<import id>/}; each file there becomes its entry's data object, named
 * by its path. The entries (read from the live NameNode or from its fsimage) go in as one bulk
 * insertion publish that the server validates and ingests whole or not at all; the attributes a
 * bulk entry cannot carry are set afterwards on the entries that have them. Any failure puts the
 * directory back where it was and leaves no target behind.
 */
public final class Importer {
  /** What an import did, for the operator (and for the tests). */
  public record Report(String importId, Path objects, long directories, long files, long bytes, long extras,
      List<String> snapshotsNotCarried, long millis, long changesSinceImage, long subtreesReadLive) {}

  /** How long the import waits for its own rename to show in the NameNode's edit log (inotify). */
  private static final long RENAME_WAIT_MILLIS = 60_000;

  private final Configuration conf;
  private final IndexFileSystem ifs;

  public Importer(Configuration conf, IndexFileSystem ifs) {
    this.conf = conf;
    this.ifs = ifs;
  }

  /** Imports directory {@code from} (hdfs://nn/dir) to {@code target}; with {@code fsimage}, its entries come from that image. */
  public Report run(URI from, File fsimage, Path target) throws IOException {
    try (DistributedFileSystem dfs = source(from)) {
      return run(dfs, from, fsimage, target);
    }
  }

  private Report run(DistributedFileSystem dfs, URI from, File fsimage, Path target) throws IOException {
    long start = System.currentTimeMillis();
    Path src = new Path(from.getPath());
    reachable(dfs, from);
    Path dataRoot = dataRoot(dfs);
    checkSource(dfs, src, dataRoot);
    if (ifs.exists(target)) {
      throw new FileAlreadyExistsException("Import target " + target + " exists: an import makes a new directory");
    }
    FsImageWalk image = fsimage == null ? null : image(conf, fsimage, dfs, src);
    String importId = String.format("%d-%08x", start, new java.security.SecureRandom().nextInt());
    String objectsRel = "imported/" + importId;
    Path objects = new Path(dataRoot, objectsRel);
    Map<Integer, String> principals = new HashMap<>();
    if (target.getParent() != null) {
      ifs.mkdirs(target.getParent());
    }
    LocalSubtree holder = ifs.localizeForImport(target, principals);
    Entries entries = new Entries(holder, principals, objectsRel);
    boolean moved = false;
    long extras;
    long changes = 0;
    long liveRoots = 0;
    try {
      if (image != null) {
        // The bulk, before the rename: the image's entries but those changed since (read live below).
        String srcPath = src.toUri().getPath();
        ImageChanges.Changes before = ImageChanges.since(dfs, image.nameSystem().getTransactionId(), srcPath, null, 0);
        TreeSet<String> dirty = new TreeSet<>(before.subtrees());
        image.walk(e -> {
          if (!ImageChanges.covered(dirty, e.relPath)) {
            entries.accept(e);
          }
        });
        prepareImportedDirectory(dfs, dataRoot);
        moved = move(dfs, src, objects);
        // What changed while the image was read, up to the rename: dropped from the buffer, read live too.
        ImageChanges.Changes after = ImageChanges.since(dfs, before.lastTxid(), srcPath, objects.toUri().getPath(),
            RENAME_WAIT_MILLIS);
        for (String rel : ImageChanges.roots(after.subtrees())) {
          if (!ImageChanges.covered(dirty, rel)) {
            entries.drop(rel);
          }
        }
        dirty.addAll(after.subtrees());
        noneOpen(dfs, objects, src);
        LiveWalk live = new LiveWalk(dfs, objects);
        for (String rel : ImageChanges.roots(dirty)) {
          live.walkFrom(rel, entries); // false: deleted or renamed away since the image, so dropped
          liveRoots++;
        }
        TreeSet<String> selves = new TreeSet<>(before.selves());
        selves.addAll(after.selves());
        for (String rel : selves) {
          if (!ImageChanges.covered(dirty, rel) && live.read(rel, entries::replace)) {
            liveRoots++; // changed in place: this entry's attributes only, its children stay the image's
          }
        }
        changes = before.events() + after.events();
      } else {
        prepareImportedDirectory(dfs, dataRoot);
        moved = move(dfs, src, objects); // walked where it now is: nobody can change it by its old paths meanwhile
        noneOpen(dfs, objects, src);
        new LiveWalk(dfs, objects).walk(entries);
      }
      List<String> refused = ifs.publish(target);
      if (!refused.isEmpty()) {
        throw new IOException("IndexFS refused " + refused.size() + " entries, first: " + refused.get(0));
      }
      extras = new ExtraAttributes(ifs, target).apply(entries.root, entries.extras);
    } catch (IOException | RuntimeException e) {
      rollBack(dfs, src, objects, moved, target);
      throw new IOException("Import of " + from + " into " + target + " failed, nothing was imported"
          + (moved ? " (" + src + " is back in place)" : "") + ": " + e.getMessage(), e);
    }
    return new Report(importId, objects, entries.directories, entries.files, entries.bytes, extras,
        entries.snapshotsNotCarried, System.currentTimeMillis() - start, changes, liveRoots);
  }

  /** A file opened between the checks and the rename (its length is not final): refused, rolled back. */
  private static void noneOpen(DistributedFileSystem dfs, Path objects, Path src) throws IOException {
    RemoteIterator<OpenFileEntry> it = dfs.listOpenFiles(EnumSet.of(OpenFilesIterator.OpenFilesType.ALL_OPEN_FILES),
        objects.toUri().getPath());
    if (it.hasNext()) {
      throw new IOException("A file under " + src + " was open for write at the import's rename ("
          + it.next().getFilePath() + "): stop writes to " + src + ", close the files, and import again");
    }
  }

  DistributedFileSystem source(URI from) throws IOException {
    if (!"hdfs".equals(from.getScheme()) || from.getPath() == null || from.getPath().isEmpty()) {
      throw new IllegalArgumentException("--from needs an hdfs://namenode/directory URI, not " + from);
    }
    FileSystem fs = FileSystem.newInstance(URI.create(from.getScheme() + "://" + from.getAuthority()), conf);
    return (DistributedFileSystem) fs;
  }

  /** The data tier's root, which must be on the source's NameNode: its files become the objects where they are. */
  private Path dataRoot(DistributedFileSystem dfs) throws IOException {
    String dataUri = ifs.client().serverInfo().getDataUri();
    if (dataUri.isEmpty()) {
      throw new IOException("This IndexFS cluster has no data tier (indexfs.data.uri): imported files need one on the "
          + "source's NameNode");
    }
    URI data = URI.create(dataUri);
    URI dataNn = FileSystem.get(data, conf).getUri();
    if (!dataNn.equals(dfs.getUri())) {
      throw new IOException("The source " + dfs.getUri() + " is not the NameNode of IndexFS's data tier (" + dataUri
          + "): an import without copying needs the files on that NameNode (name it as indexfs.data.uri does)");
    }
    return new Path(dataNn.toString() + data.getPath());
  }

  /** An unreachable NameNode or one in safe mode (the rename would fail half-way) is refused up front. */
  private static void reachable(DistributedFileSystem dfs, URI from) throws IOException {
    boolean safe;
    try {
      safe = dfs.isInSafeMode();
    } catch (IOException e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t instanceof ConnectException || t instanceof java.net.UnknownHostException
            || t instanceof java.net.NoRouteToHostException || t instanceof java.net.SocketTimeoutException) {
          throw new IOException("NameNode " + dfs.getUri() + " of " + from + " is unreachable: " + e.getMessage(), e);
        }
      }
      throw e;
    }
    if (safe) {
      throw new IOException("NameNode " + dfs.getUri() + " is in safe mode: the import renames the source, which needs a "
          + "writable NameNode; wait for it to leave safe mode");
    }
  }

  private static void checkSource(DistributedFileSystem dfs, Path src, Path dataRoot) throws IOException {
    String s = src.toUri().getPath();
    String d = dataRoot.toUri().getPath();
    if (s.equals("/") || d.equals(s) || d.startsWith(s + "/") || s.startsWith(d + "/")) {
      throw new IOException("Cannot import " + s + ": it is the root, or holds or lies in IndexFS's data tier " + d);
    }
    if (!dfs.getFileStatus(src).isDirectory()) {
      throw new IOException("Cannot import " + s + ": not a directory");
    }
    List<String> snapshots = snapshotsUnder(dfs, s);
    if (!snapshots.isEmpty()) {
      throw new IOException("Cannot import " + s + ": it holds snapshots (" + String.join(", ", snapshots) + "), and HDFS "
          + "cannot rename a directory holding snapshots, which the import does instead of copying; snapshots are not "
          + "carried into IndexFS: delete them (hdfs dfs -deleteSnapshot DIR NAME) and import again");
    }
    List<String> open = new ArrayList<>();
    RemoteIterator<OpenFileEntry> it = dfs.listOpenFiles(EnumSet.of(OpenFilesIterator.OpenFilesType.ALL_OPEN_FILES), s);
    while (it.hasNext() && open.size() < 10) {
      open.add(it.next().getFilePath());
    }
    if (!open.isEmpty()) {
      throw new IOException("Cannot import " + s + ": files in it are open for write (" + String.join(", ", open)
          + "); close them or recover their leases (hdfs debug recoverLease), then import");
    }
  }

  /** Every snapshot of a directory at or below {@code dir}, as {@code <dir>/.snapshot/<name>}. */
  private static List<String> snapshotsUnder(DistributedFileSystem dfs, String dir) throws IOException {
    List<String> out = new ArrayList<>();
    org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus[] all = dfs.getSnapshottableDirListing();
    for (org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus d : all == null
        ? new org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus[0] : all) {
      String p = d.getFullPath().toUri().getPath();
      if (d.getSnapshotNumber() > 0 && (p.equals(dir) || p.startsWith(dir + "/"))) {
        for (org.apache.hadoop.fs.FileStatus s : dfs.listStatus(new Path(p, ".snapshot"))) {
          out.add(p + "/.snapshot/" + s.getPath().getName());
        }
      }
    }
    return out;
  }

  /** The image must be of this NameNode (its namespace id) and readable (layout, summary) before anything changes. */
  static FsImageWalk image(Configuration conf, File fsimage, DistributedFileSystem dfs, Path src) throws IOException {
    FsImageWalk image = new FsImageWalk(fsimage, src.toUri().getPath(), conf);
    NameSystemSection ns = image.nameSystem();
    NamenodeProtocol nn = NameNodeProxies.createProxy(conf, dfs.getUri(), NamenodeProtocol.class).getProxy();
    int live;
    try {
      live = nn.versionRequest().getNamespaceID();
    } finally {
      RPC.stopProxy(nn);
    }
    if (live != ns.getNamespaceId()) {
      throw new IOException("fsimage " + fsimage + " is of namespace " + ns.getNamespaceId() + ", but the data tier's NameNode "
          + dfs.getUri() + " serves namespace " + live + ": import an image of the data tier's NameNode");
    }
    return image;
  }

  /** {@code <data root>/imported}: the servers' (as the data root), traversable only. */
  private static void prepareImportedDirectory(DistributedFileSystem dfs, Path dataRoot) throws IOException {
    Path dir = new Path(dataRoot, "imported");
    if (!dfs.exists(dir)) {
      dfs.mkdirs(dir);
      org.apache.hadoop.fs.FileStatus root = dfs.getFileStatus(dataRoot);
      dfs.setOwner(dir, root.getOwner(), root.getGroup());
      dfs.setPermission(dir, new FsPermission((short) 0711));
    }
  }

  private static boolean move(DistributedFileSystem dfs, Path src, Path objects) throws IOException {
    if (!dfs.rename(src, objects)) {
      throw new IOException("HDFS refused to rename " + src + " to " + objects);
    }
    return true;
  }

  /**
   * Puts the source back, then removes the target: the deletes that reclaim its entries' objects
   * find nothing under {@code imported/<id>/} any more, so no user file is touched.
   */
  private void rollBack(DistributedFileSystem dfs, Path src, Path objects, boolean moved, Path target) {
    try {
      ifs.abandonImport(target);
    } catch (IOException | RuntimeException e) {
      addTo(e, "could not drop the unpublished entries");
    }
    if (moved) {
      try {
        if (!dfs.rename(objects, src)) {
          throw new IOException("HDFS refused the rename back");
        }
      } catch (IOException e) {
        // The one state needing an operator: said loudly, with the command that ends it.
        throw new IllegalStateException("Import failed and " + objects + " could not be moved back to " + src + " ("
            + e.getMessage() + "): run hdfs dfs -mv " + objects.toUri().getPath() + " " + src.toUri().getPath()
            + ", then delete " + target + " in IndexFS", e);
      }
    }
    try {
      ifs.delete(target, true); // nothing was published into it: an empty directory
    } catch (FileNotFoundException gone) {
      // nothing to remove
    } catch (IOException e) {
      addTo(e, "could not remove " + target);
    }
  }

  private static void addTo(Exception e, String what) {
    System.err.println("import roll-back: " + what + ": " + e);
  }

  /** The walk's sink: each entry into the holder's buffer under its parent's new inode id. */
  private static final class Entries implements NamespaceSource.Sink {
    private final LocalSubtree holder;
    private final Map<Integer, String> principals;
    private final Map<String, Integer> ids = new HashMap<>();
    private final Map<String, Long> dirIds = new HashMap<>();
    private final String objectsRel;
    final List<ImportedEntry> extras = new ArrayList<>();
    final List<String> snapshotsNotCarried = new ArrayList<>();
    ImportedEntry root;
    long directories;
    long files;
    long bytes;

    Entries(LocalSubtree holder, Map<Integer, String> principals, String objectsRel) {
      this.holder = holder;
      this.principals = principals;
      this.objectsRel = objectsRel;
    }

    @Override
    public void accept(ImportedEntry e) throws IOException {
      for (String s : e.snapshots) {
        snapshotsNotCarried.add((e.relPath.isEmpty() ? "." : e.relPath) + "/.snapshot/" + s);
      }
      if (e.hasExtras()) {
        extras.add(e);
      }
      if (e.relPath.isEmpty()) {
        root = e;
        dirIds.put("", holder.rootId());
        return;
      }
      int slash = e.relPath.lastIndexOf('/');
      String parentRel = slash < 0 ? "" : e.relPath.substring(0, slash);
      Long parent = dirIds.get(parentRel);
      if (parent == null) {
        throw new IOException("The walk handed " + e.relPath + " before its directory");
      }
      Inode i = inode(e);
      long id = holder.putImported(parent, e.relPath.substring(slash + 1), i);
      if (e.directory) {
        dirIds.put(e.relPath, id);
        directories++;
      } else {
        files++;
        bytes += e.length;
      }
    }

    /** Entry {@code e.relPath}, buffered already, takes {@code e}'s attributes (keeping its id and children). */
    void replace(ImportedEntry e) throws IOException {
      extras.removeIf(x -> x.relPath.equals(e.relPath));
      if (e.hasExtras()) {
        extras.add(e);
      }
      if (e.relPath.isEmpty()) {
        root = e;
        return;
      }
      int slash = e.relPath.lastIndexOf('/');
      Long parent = dirIds.get(slash < 0 ? "" : e.relPath.substring(0, slash));
      if (parent == null) {
        throw new IOException("The import changed " + e.relPath + " in place, but its directory is not in the import");
      }
      Inode old = holder.replaceImported(parent, e.relPath.substring(slash + 1), inode(e));
      if (!old.isDirectory()) {
        bytes += e.length - old.length;
      }
    }

    private Inode inode(ImportedEntry e) {
      Inode i = new Inode();
      i.type = e.directory ? Inode.TYPE_DIRECTORY : Inode.TYPE_FILE;
      i.permission = e.permission & 01777;
      i.ownerId = id(e.owner);
      i.groupId = id(e.group);
      i.mtime = e.mtime;
      i.atime = e.atime;
      if (!e.directory) {
        i.replication = e.replication;
        i.blockSize = e.blockSize;
        i.length = e.length;
        i.dataObject = objectsRel + "/" + e.relPath; // the HDFS file itself, where the rename put it
      }
      return i;
    }

    /** Drops the buffered entry {@code rel} and all below it ("": everything), changed on the NameNode since read. */
    void drop(String rel) throws IOException {
      List<Inode> gone;
      if (rel.isEmpty()) {
        gone = holder.dropImported(holder.rootId(), null);
        root = null;
        dirIds.keySet().removeIf(k -> !k.isEmpty());
        extras.clear();
      } else {
        int slash = rel.lastIndexOf('/');
        Long parent = dirIds.get(slash < 0 ? "" : rel.substring(0, slash));
        if (parent == null) {
          return; // its directory was not buffered: nothing of it is
        }
        gone = holder.dropImported(parent, rel.substring(slash + 1));
        dirIds.keySet().removeIf(k -> k.equals(rel) || k.startsWith(rel + "/"));
        extras.removeIf(e -> e.relPath.equals(rel) || e.relPath.startsWith(rel + "/"));
      }
      for (Inode i : gone) {
        if (i.isDirectory()) {
          directories--;
        } else {
          files--;
          bytes -= i.length;
        }
      }
    }

    private int id(String principal) {
      return ids.computeIfAbsent(principal, p -> {
        int next = ids.size() + 1;
        principals.put(next, p);
        return next;
      });
    }
  }
}
