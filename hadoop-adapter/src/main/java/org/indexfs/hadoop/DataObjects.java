package org.indexfs.hadoop;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsStatus;
import org.apache.hadoop.fs.Path;
import org.indexfs.common.InodeIds;

/**
 * The data objects of large files on the underlying Hadoop FS (DESIGN §6): write-once files named
 * {@code <data.uri>/<slot>/<inode id>}. Names never change; renames and chmods never touch them.
 */
final class DataObjects implements AutoCloseable {
  private final String dataUri;
  private final Configuration conf;
  private FileSystem fs;

  DataObjects(String dataUri, Configuration conf) {
    this.dataUri = dataUri;
    this.conf = conf;
  }

  String nameFor(long inodeId) {
    return InodeIds.slot(inodeId) + "/" + inodeId;
  }

  private synchronized FileSystem fs() throws IOException {
    if (dataUri.isEmpty()) {
      throw new IOException("This IndexFS cluster has no indexfs.data.uri: files above the inline limit cannot be stored");
    }
    if (fs == null) {
      fs = FileSystem.newInstance(URI.create(dataUri), conf);
    }
    return fs;
  }

  private Path pathOf(String name) {
    return new Path(dataUri + "/" + name);
  }

  OutputStream create(String name, short replication, long blockSize) throws IOException {
    FileSystem f = fs();
    return f.create(pathOf(name), true, f.getConf().getInt("io.file.buffer.size", 4096), replication, blockSize);
  }

  /** Capacity and usage of the data tier, which is where the bytes (and the space) are. */
  FsStatus status() throws IOException {
    return fs().getStatus();
  }

  FSDataInputStream open(String name) throws IOException {
    return fs().open(pathOf(name));
  }

  @Override
  public synchronized void close() throws IOException {
    if (fs != null) {
      fs.close();
      fs = null;
    }
  }
}
