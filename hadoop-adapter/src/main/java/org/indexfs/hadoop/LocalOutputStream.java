package org.indexfs.hadoop;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.indexfs.client.bulk.LocalSubtree;

/**
 * Writes a file created inside a localized subtree (IndexFS §II-D): small files keep their bytes
 * in memory and end up inline in the published entry; past {@code indexfs.inline.max-bytes} the
 * bytes go to the data object named after the file's reserved inode id. Nothing reaches the
 * metadata server until the subtree is published; there is no hflush/hsync to it (no one else may
 * read the file before the publish anyway).
 */
final class LocalOutputStream extends OutputStream {
  private final LocalSubtree subtree;
  private final DataObjects objects;
  private final String path;
  private final long inodeId;
  private final int inlineMax;
  private final short replication;
  private final long blockSize;
  private ByteArrayOutputStream inline = new ByteArrayOutputStream();
  private FSDataOutputStream object;
  private long length;
  private boolean closed;
  /** Durability client-journal (issue 18): the closed file is journaled before close returns. */
  private ClientJournal journal;
  private int permission;

  LocalOutputStream(LocalSubtree subtree, DataObjects objects, String path, long inodeId, int inlineMax,
      short replication, long blockSize) {
    this.subtree = subtree;
    this.objects = objects;
    this.path = path;
    this.inodeId = inodeId;
    this.inlineMax = inlineMax;
    this.replication = replication;
    this.blockSize = blockSize;
  }

  LocalOutputStream journaled(ClientJournal journal, int permission) {
    this.journal = journal;
    this.permission = permission;
    return this;
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public synchronized void write(byte[] b, int off, int len) throws IOException {
    if (closed) {
      throw new IOException(FSExceptionMessages.STREAM_IS_CLOSED + ": " + path);
    }
    Objects.checkFromIndexSize(off, len, b.length);
    if (object == null && length + len > inlineMax) {
      object = objects.create(subtree.objectName(inodeId), replication, blockSize, subtree.objectPolicy());
      inline.writeTo(object);
      inline = null;
    }
    if (object != null) {
      object.write(b, off, len);
    } else {
      inline.write(b, off, len);
    }
    length += len;
  }

  @Override
  public synchronized void flush() throws IOException {
    if (object != null) {
      object.flush();
    }
  }

  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (object != null) {
        object.close();
        subtree.complete(inodeId, length, null, subtree.objectName(inodeId));
      } else {
        subtree.complete(inodeId, length, inline.toByteArray(), null);
      }
      if (journal != null) {
        journal.file(path, permission, replication, blockSize, length, object == null ? inline.toByteArray() : null,
            object == null ? null : subtree.objectName(inodeId));
      }
    } catch (IOException e) {
      throw HadoopErrors.toHadoop(e);
    }
  }
}
