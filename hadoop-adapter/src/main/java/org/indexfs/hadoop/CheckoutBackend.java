package org.indexfs.hadoop;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Iterator;
import java.util.List;
import java.util.function.Function;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.permission.FsPermission;
import org.indexfs.hadoop.decoupled.PrivateCopy;
import org.indexfs.proto.FileType;

/**
 * A checked-out copy (issue 18's consistency {@code decoupled}; Cudele) answers every path inside
 * it from this process, with no RPC and no lease, until it is merged: names, bytes, modes of new
 * entries, renames and deletes. A file checked out and not written here is read from where the
 * server holds it; calls a copy does not keep (setPermission, append …) are refused. Under
 * durability {@code client-journal} each change is also journaled.
 */
final class CheckoutBackend implements NamespaceBackend {
  private final PrivateCopy copy;
  private final MeteredFileSystem fs;
  private final LocalizedPaths localized;
  /** Who answers a path outside every copy (a checked-out file's bytes are read there). */
  private final Function<String, NamespaceBackend> outside;

  CheckoutBackend(PrivateCopy copy, MeteredFileSystem fs, LocalizedPaths localized,
      Function<String, NamespaceBackend> outside) {
    this.copy = copy;
    this.fs = fs;
    this.localized = localized;
    this.outside = outside;
  }

  private ClientJournal journal() {
    return localized.journalAt(copy.root());
  }

  @Override
  public FSDataInputStream open(String path) throws IOException {
    byte[] written = copy.readWritten(path);
    if (written != null) {
      return new FSDataInputStream(new IndexInputStream(path, written.length, IndexInputStream.inline(written),
          fs.stats()));
    }
    String origin = copy.origin(path); // checked out, not written in the copy: the server's bytes
    return outside.apply(origin).open(origin);
  }

  @Override
  public FSDataOutputStream create(String path, FsPermission permission, boolean overwrite, short replication,
      long blockSize, boolean createParent) throws IOException {
    OutputStream out = copy.create(path, permission.toShort(), overwrite, replication, blockSize, createParent);
    ClientJournal journal = journal();
    return new FSDataOutputStream(journal == null ? out
        : ClientJournal.journaledCopyFile(out, journal, copy, path, permission.toShort(), replication, blockSize),
        fs.stats());
  }

  @Override
  public boolean mkdirs(String path, FsPermission permission) throws IOException {
    boolean made = copy.mkdirs(path, permission.toShort());
    ClientJournal journal = journal();
    if (made && journal != null) {
      journal.mkdir(path, permission.toShort());
    }
    return made;
  }

  @Override
  public boolean delete(String path, boolean recursive) throws IOException {
    boolean deleted = copy.delete(path, recursive);
    ClientJournal journal = journal();
    if (deleted && journal != null) {
      journal.delete(path, recursive);
    }
    return deleted;
  }

  /** Both sides must be in this copy. */
  @Override
  public boolean rename(String src, String dst) throws IOException {
    if (!copy.covers(src) || !copy.covers(dst)) {
      throw new IOException("Cannot rename " + src + " to " + dst
          + ": only one side is in a checked-out copy (merge it first)");
    }
    boolean renamed = copy.rename(src, dst);
    ClientJournal journal = journal();
    if (renamed && journal != null) {
      journal.rename(src, dst);
    }
    return renamed;
  }

  @Override
  public FileStatus getFileStatus(Path qualified, String path) throws IOException {
    return new IndexFileStatus(qualified, copy.status(path));
  }

  @Override
  public RemoteIterator<FileStatus> list(Path asGiven, Path dir, String path) throws IOException {
    List<org.indexfs.proto.FileStatus> entries = copy.list(path);
    ChildPaths children = new ChildPaths(dir);
    Iterator<org.indexfs.proto.FileStatus> it = entries.iterator();
    boolean file = entries.size() == 1 && entries.get(0).getType() == FileType.FILE
        && copy.status(path).getType() == FileType.FILE;
    return new RemoteIterator<>() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public FileStatus next() {
        org.indexfs.proto.FileStatus s = it.next();
        return new IndexFileStatus(file ? dir : children.of(s.getName()), s);
      }
    };
  }

  @Override
  public void beforeServerCall(String path, String call) {
    throw copy.refusal(path, call);
  }
}
