package org.indexfs.hadoop;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.indexfs.client.IndexFsClient;

/**
 * Writes a file created by {@code create}: bytes stay in memory while the file is small enough to
 * live inline in its entry; past {@code indexfs.inline.max-bytes} the stream spills them to a new
 * data object on the underlying FS and continues there. {@code close} records the final length
 * (and the inline bytes or the object) in one RPC.
 */
final class IndexOutputStream extends OutputStream {
  private final IndexFsClient client;
  private final DataObjects objects;
  private final String path;
  private final long inodeId;
  private final int inlineMax;
  private final short replication;
  private final long blockSize;
  private ByteArrayOutputStream inline = new ByteArrayOutputStream();
  private OutputStream object;
  private String objectName;
  private long length;
  private boolean closed;

  IndexOutputStream(IndexFsClient client, DataObjects objects, String path, long inodeId, int inlineMax,
      short replication, long blockSize) {
    this.client = client;
    this.objects = objects;
    this.path = path;
    this.inodeId = inodeId;
    this.inlineMax = inlineMax;
    this.replication = replication;
    this.blockSize = blockSize;
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new IOException(FSExceptionMessages.STREAM_IS_CLOSED + ": " + path);
    }
  }

  @Override
  public synchronized void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public synchronized void write(byte[] b, int off, int len) throws IOException {
    checkOpen();
    java.util.Objects.checkFromIndexSize(off, len, b.length);
    if (object == null && length + len > inlineMax) {
      spill();
    }
    if (object != null) {
      object.write(b, off, len);
    } else {
      inline.write(b, off, len);
    }
    length += len;
  }

  /** The file outgrew the inline limit: move what we have to a fresh data object. */
  private void spill() throws IOException {
    objectName = objects.nameFor(inodeId);
    object = objects.create(objectName, replication, blockSize);
    inline.writeTo(object);
    inline = null;
  }

  @Override
  public synchronized void flush() throws IOException {
    checkOpen();
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
    if (object != null) {
      object.close();
      client.complete(path, inodeId, length, null, objectName);
    } else {
      client.complete(path, inodeId, length, inline.toByteArray(), null);
    }
  }
}
