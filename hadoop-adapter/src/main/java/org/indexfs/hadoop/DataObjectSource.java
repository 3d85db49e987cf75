package org.indexfs.hadoop;

import java.io.IOException;
import org.apache.hadoop.fs.FSDataInputStream;

/**
 * Reads a data object on the underlying FS, seeking the underlying stream only when the reader
 * jumps, so sequential reads keep the underlying FS's read-ahead.
 */
final class DataObjectSource implements IndexInputStream.Source {
  private final FSDataInputStream in;

  DataObjectSource(FSDataInputStream in) {
    this.in = in;
  }

  @Override
  public int read(long position, byte[] buffer, int offset, int len) throws IOException {
    if (in.getPos() != position) {
      in.seek(position);
    }
    return in.read(buffer, offset, len);
  }

  @Override
  public void unbuffer() {
    in.unbuffer();
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
