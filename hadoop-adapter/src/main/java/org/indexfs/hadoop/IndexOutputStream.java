package org.indexfs.hadoop;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Locale;
import java.util.Objects;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.Syncable;
import org.indexfs.client.IndexFsClient;
import org.indexfs.client.LeaseRenewer;

/**
 * Writes a file opened by {@code create} or {@code append}, holding its write lease.
 *
 * <p>Bytes stay in memory while the file is small enough to live inline in its entry. Past
 * {@code indexfs.inline.max-bytes} the stream <em>spills</em>: it creates the data object the
 * server reserved for this writer, writes everything so far into it, and only then records it in
 * the entry. If the writer had hflushed, the object is hflushed before it is recorded, so readers
 * switch from the entry's bytes to the object's without ever seeing less. (Otherwise it is not:
 * an HDFS stream that was ever hflushed needs a replacement DataNode to survive a pipeline failure,
 * and a plain write should keep HDFS's plain-write resilience.) Writing continues on the object
 * with the stock client of the data tier. {@code close} records the final length and ends the lease.
 *
 * <p>{@code hflush}/{@code hsync} follow HDFS: afterwards new readers see every byte written. For
 * an inline file that means writing its bytes through to the entry (the server records them, and
 * with hsync makes them durable); for an object file it is the data tier's own hflush/hsync.
 */
final class IndexOutputStream extends OutputStream implements Syncable, StreamCapabilities {
  private final IndexFsClient client;
  private final DataObjects objects;
  private final LeaseRenewer renewer;
  private final String path;
  private final long inodeId;
  private final int inlineMax;
  private final short replication;
  private final long blockSize;
  private final String spillObject;
  /** The storage policy the server said the spill object inherits ("": the data tier's default). */
  private final String spillPolicy;
  private ByteArrayOutputStream inline;
  private FSDataOutputStream object;
  private String objectName;
  private long length;
  /** The length readers of the open file can see, or -1 while nothing was made visible. */
  private long flushedLength = -1;
  private boolean closed;

  /** What the stream continues from: nothing (create), the inline bytes, or the object (append). */
  record Start(byte[] inlineBytes, FSDataOutputStream object, String objectName, long length) {
    static Start empty() {
      return new Start(new byte[0], null, null, 0);
    }
  }

  IndexOutputStream(IndexFsClient client, DataObjects objects, LeaseRenewer renewer, String path, long inodeId,
      int inlineMax, short replication, long blockSize, String spillObject, String spillPolicy, Start start) {
    this.client = client;
    this.objects = objects;
    this.renewer = renewer;
    this.path = path;
    this.inodeId = inodeId;
    this.inlineMax = inlineMax;
    this.replication = replication;
    this.blockSize = blockSize;
    this.spillObject = spillObject;
    this.spillPolicy = spillPolicy;
    this.length = start.length();
    if (start.object() != null) {
      object = start.object();
      objectName = start.objectName();
    } else {
      inline = new ByteArrayOutputStream();
      inline.writeBytes(start.inlineBytes());
      // An appended file's existing bytes are already visible: a spill must keep them so.
      flushedLength = start.length() > 0 ? start.length() : -1;
    }
    renewer.opened();
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
    Objects.checkFromIndexSize(off, len, b.length);
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

  /** The file outgrew the inline limit: move what we have to this writer's data object. */
  private void spill() throws IOException {
    if (spillObject.isEmpty()) {
      throw new IOException("No data object was reserved for " + path + "; cannot grow it past "
          + inlineMax + " bytes");
    }
    FSDataOutputStream out = objects.create(spillObject, replication, blockSize, spillPolicy);
    try {
      inline.writeTo(out);
      if (flushedLength >= 0) {
        out.hflush();
      }
      client.flush(path, inodeId, length, null, spillObject, false);
    } catch (IOException e) {
      try {
        out.close();
      } catch (IOException closeFailure) {
        // HDFS streams rethrow their first failure on close: report it once.
        if (closeFailure != e) {
          e.addSuppressed(closeFailure);
        }
      }
      objects.deleteQuietly(spillObject);
      throw HadoopErrors.toHadoop(e);
    }
    object = out;
    objectName = spillObject;
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
  public void hflush() throws IOException {
    sync(false);
  }

  @Override
  public void hsync() throws IOException {
    sync(true);
  }

  private synchronized void sync(boolean durable) throws IOException {
    checkOpen();
    if (object != null) {
      if (durable) {
        object.hsync();
      } else {
        object.hflush();
      }
    } else if (length != flushedLength || durable) {
      try {
        client.flush(path, inodeId, length, inline.toByteArray(), null, durable);
      } catch (IOException e) {
        throw HadoopErrors.toHadoop(e);
      }
      flushedLength = length;
    }
  }

  @Override
  public boolean hasCapability(String capability) {
    return switch (capability.toLowerCase(Locale.ROOT)) {
      case StreamCapabilities.HFLUSH, StreamCapabilities.HSYNC -> true;
      default -> false;
    };
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
        client.complete(path, inodeId, length, null, objectName);
      } else {
        client.complete(path, inodeId, length, inline.toByteArray(), null);
      }
    } catch (IOException e) {
      throw HadoopErrors.toHadoop(e);
    } finally {
      renewer.closed();
    }
  }
}
