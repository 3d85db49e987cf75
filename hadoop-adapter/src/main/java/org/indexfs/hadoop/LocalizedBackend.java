package org.indexfs.hadoop;

import java.io.IOException;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.permission.FsPermission;
import org.indexfs.client.bulk.LocalSubtree;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.FileType;

/**
 * A subtree this client has localized (bulk insertion, IndexFS §II-D; issue 18's consistency
 * {@code localized}) answers paths below its root from this process, with no RPC: what is made
 * there stays pending until it is published. What the subtree does not hold ({@link
 * LocalSubtree.NotLocal}: an entry already on the server) is published first and then asked of
 * the server. Under durability {@code client-journal} each change is also journaled.
 */
final class LocalizedBackend implements NamespaceBackend {
  private final LocalSubtree t;
  private final MeteredFileSystem fs;
  private final LocalizedPaths localized;
  private final DataObjects objects;
  private final ServerBackend server;
  private final int inlineMax;

  LocalizedBackend(LocalSubtree t, MeteredFileSystem fs, LocalizedPaths localized, DataObjects objects,
      ServerBackend server, int inlineMax) {
    this.t = t;
    this.fs = fs;
    this.localized = localized;
    this.objects = objects;
    this.server = server;
    this.inlineMax = inlineMax;
  }

  /** A file made here: its bytes inline here, or its object; else the server's file. */
  @Override
  public FSDataInputStream open(String path) throws IOException {
    Inode pending = t.pendingFile(path);
    if (pending == null || pending.isDirectory()) {
      return server.open(path);
    }
    if (pending.dataObject == null) {
      byte[] bytes = pending.inlineData == null ? new byte[0] : pending.inlineData;
      return new FSDataInputStream(new IndexInputStream(path, bytes.length, IndexInputStream.inline(bytes), fs.stats()));
    }
    return new FSDataInputStream(new IndexInputStream(path, pending.length,
        new DataObjectSource(objects.open(pending.dataObject, objects.user(), path)), fs.stats()));
  }

  @Override
  public FSDataOutputStream create(String path, FsPermission permission, boolean overwrite, short replication,
      long blockSize, boolean createParent) throws IOException {
    if (path.equals(t.root())) {
      return server.create(path, permission, overwrite, replication, blockSize, createParent); // the root is the server's
    }
    try {
      LocalSubtree.Created c = fs.write(() -> t.create(path, permission.toShort(), overwrite, replication, blockSize));
      if (c.replacedObject() != null) {
        objects.deleteQuietly(c.replacedObject());
      }
      return new FSDataOutputStream(new LocalOutputStream(t, objects, path, c.inodeId(), inlineMax,
          replication, blockSize).journaled(localized.journalOf(t), permission.toShort()), fs.stats());
    } catch (LocalSubtree.NotLocal e) {
      t.publish(false);
    }
    return server.create(path, permission, overwrite, replication, blockSize, createParent);
  }

  @Override
  public boolean mkdirs(String path, FsPermission permission) throws IOException {
    if (path.equals(t.root())) {
      return true; // localized for this mkdirs (a task attempt directory): made
    }
    try {
      boolean made = fs.write(() -> t.mkdirs(path, permission.toShort()));
      ClientJournal journal = localized.journalOf(t);
      if (journal != null) {
        journal.mkdir(path, permission.toShort());
      }
      return made;
    } catch (LocalSubtree.NotLocal e) {
      t.publish(false);
    }
    return server.mkdirs(path, permission);
  }

  @Override
  public boolean delete(String path, boolean recursive) throws IOException {
    try {
      for (String object : fs.write(() -> t.delete(path, recursive))) {
        objects.deleteQuietly(object);
      }
      ClientJournal journal = localized.journalOf(t);
      if (journal != null) {
        journal.delete(path, recursive);
      }
      return true;
    } catch (LocalSubtree.NotLocal e) {
      t.publish(false);
    }
    return server.delete(path, recursive);
  }

  /** Inside the subtree, here; an entry moving out goes through the server once what is pending is published. */
  @Override
  public boolean rename(String src, String dst) throws IOException {
    if (t.contains(dst)) {
      try {
        boolean renamed = fs.write(() -> t.rename(src, dst));
        ClientJournal journal = localized.journalOf(t);
        if (renamed && journal != null) {
          journal.rename(src, dst);
        }
        return renamed;
      } catch (LocalSubtree.NotLocal e) {
        // on the server: published first, below
      }
    }
    localized.beforeMoveOut(t);
    return server.rename(src, dst);
  }

  @Override
  public FileStatus getFileStatus(Path qualified, String path) throws IOException {
    return fs.read(() -> new IndexFileStatus(qualified, t.getFileStatus(path)));
  }

  /** The server's entries merged with those pending here (the root's listing too). */
  @Override
  public RemoteIterator<FileStatus> list(Path asGiven, Path dir, String path) throws IOException {
    List<org.indexfs.proto.FileStatus> entries = fs.read(() -> t.list(path));
    ChildPaths children = new ChildPaths(dir);
    return new RemoteIterator<>() {
      private int index;

      @Override
      public boolean hasNext() {
        return index < entries.size();
      }

      @Override
      public FileStatus next() {
        if (!hasNext()) {
          throw new NoSuchElementException("No more entries in " + dir);
        }
        org.indexfs.proto.FileStatus s = entries.get(index++);
        return new IndexFileStatus(entries.size() == 1 && s.getType() == FileType.FILE
            && !path.equals(t.root()) && s.getName().equals(dir.getName()) ? dir : children.of(s.getName()), s);
      }
    };
  }

  @Override
  public void beforeServerCall(String path, String call) throws IOException {
    localized.flushFor(path);
  }
}
