package org.indexfs.hadoop;

import java.io.EOFException;
import java.io.IOException;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.CanUnbuffer;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.StreamCapabilities;

/**
 * Reads a file of known length from one of two sources: the bytes inline in its entry, or its
 * data object on the underlying FS. Seek and positioned-read rules are the same for both and
 * match HDFS: no negative seeks, no seeks past the end, reads after close fail. {@code unbuffer}
 * lets an object's stream drop its buffers and DataNode connections, as DFSInputStream does.
 */
final class IndexInputStream extends FSInputStream implements CanUnbuffer, StreamCapabilities {
  /** Where the bytes come from. */
  interface Source extends java.io.Closeable {
    /** Reads up to {@code len} bytes at {@code position}; -1 at the end. */
    int read(long position, byte[] buffer, int offset, int len) throws IOException;

    /** Releases buffers and connections until the next read; nothing to do for inline bytes. */
    default void unbuffer() {}
  }

  private final String path;
  private final long length;
  private final Source source;
  /** The FileSystem's (or FileContext's) statistics: every byte handed to the caller counts, as in HDFS. */
  private final org.apache.hadoop.fs.FileSystem.Statistics statistics;
  private long pos;
  private boolean closed;

  IndexInputStream(String path, long length, Source source, org.apache.hadoop.fs.FileSystem.Statistics statistics) {
    this.path = path;
    this.length = length;
    this.source = source;
    this.statistics = statistics;
  }

  static Source inline(byte[] data) {
    return new Source() {
      @Override
      public int read(long position, byte[] buffer, int offset, int len) {
        if (position >= data.length) {
          return -1;
        }
        int n = (int) Math.min(len, data.length - position);
        System.arraycopy(data, (int) position, buffer, offset, n);
        return n;
      }

      @Override
      public void close() {}
    };
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new IOException(FSExceptionMessages.STREAM_IS_CLOSED + ": " + path);
    }
  }

  @Override
  public synchronized void seek(long target) throws IOException {
    checkOpen();
    if (target < 0) {
      throw new EOFException(FSExceptionMessages.NEGATIVE_SEEK + " " + target);
    }
    if (target > length) {
      throw new EOFException(FSExceptionMessages.CANNOT_SEEK_PAST_EOF + " " + target + " > " + length);
    }
    pos = target;
  }

  /** Answers on a closed stream too, as DFSInputStream does (unbuffer after close relies on it). */
  @Override
  public synchronized long getPos() {
    return pos;
  }

  @Override
  public boolean seekToNewSource(long targetPos) {
    return false;
  }

  @Override
  public synchronized int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n <= 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public synchronized int read(byte[] b, int off, int len) throws IOException {
    checkOpen();
    validatePositionedReadArgs(pos, b, off, len);
    if (len == 0) {
      return 0;
    }
    int n = readAt(pos, b, off, len);
    if (n > 0) {
      pos += n;
    }
    return n;
  }

  @Override
  public int read(long position, byte[] b, int off, int len) throws IOException {
    checkOpen();
    validatePositionedReadArgs(position, b, off, len);
    if (len == 0) {
      return 0;
    }
    synchronized (this) {
      return readAt(position, b, off, len);
    }
  }

  private int readAt(long position, byte[] b, int off, int len) throws IOException {
    if (position >= length) {
      return -1;
    }
    int want = (int) Math.min(len, length - position);
    int n = source.read(position, b, off, want);
    if (n > 0 && statistics != null) {
      statistics.incrementBytesRead(n);
    }
    return n;
  }

  @Override
  public synchronized int available() throws IOException {
    checkOpen();
    return (int) Math.min(Integer.MAX_VALUE, length - pos);
  }

  @Override
  public synchronized long skip(long n) throws IOException {
    checkOpen();
    if (n <= 0) {
      return 0;
    }
    long skipped = Math.min(n, length - pos);
    pos += skipped;
    return skipped;
  }

  @Override
  public synchronized void unbuffer() {
    if (!closed) {
      source.unbuffer();
    }
  }

  @Override
  public boolean hasCapability(String capability) {
    return StreamCapabilities.UNBUFFER.equalsIgnoreCase(capability);
  }

  @Override
  public synchronized void close() throws IOException {
    if (!closed) {
      closed = true;
      source.close();
    }
  }
}
