package org.indexfs.hadoop;

import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data objects of large files on the underlying Hadoop FS (DESIGN §6): write-once files named
 * {@code <data.uri>/<slot>/<id>} ({@link org.indexfs.common.ObjectNames}), written and read with
 * that FS's stock client (on HDFS: {@code DistributedFileSystem}, so block data flows between this
 * process and the DataNodes exactly as for any HDFS file). Names never change; renames and chmods
 * never touch them. An object starts as its writer's alone (0600, no umask); once the server has
 * recorded it, the object carries its file's owner, group and mode, and chmod and chown of the file
 * reach it (DESIGN §14), so HDFS refuses whoever IndexFS refuses.
 */
final class DataObjects implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DataObjects.class);
  /** The writer's alone until the server gives it its file's owner, group and mode (FlushOp). */
  private static final FsPermission OBJECT_PERMISSION = new FsPermission((short) 0600);

  private final String dataUri;
  private final Configuration conf;
  private FileSystem fs;

  DataObjects(String dataUri, Configuration conf) {
    this.dataUri = dataUri;
    this.conf = conf;
  }

  /** Made on first use: most FileSystem instances never touch a data object. */
  private synchronized FileSystem fs() throws IOException {
    if (dataUri.isEmpty()) {
      throw new IOException("This IndexFS cluster has no indexfs.data.uri: files above the inline limit cannot be stored");
    }
    if (fs == null) {
      Configuration objectConf = new Configuration(conf);
      objectConf.set("fs.permissions.umask-mode", "000");
      fs = FileSystem.newInstance(URI.create(dataUri), objectConf);
    }
    return fs;
  }

  boolean configured() {
    return !dataUri.isEmpty();
  }

  /** The data tier's FileSystem (for its delegation tokens). */
  FileSystem fileSystem() throws IOException {
    return fs();
  }

  Path pathOf(String name) {
    return new Path(dataUri + "/" + name);
  }

  /** A new object; fails if the name exists (names are handed out once, see ObjectNames). */
  FSDataOutputStream create(String name, short replication, long blockSize) throws IOException {
    return create(name, replication, blockSize, "");
  }

  /**
   * A new object placed by {@code policy} (the data tier's name; empty: the data tier's default),
   * given at creation as HDFS gives a new file its directory's policy before its first block.
   */
  FSDataOutputStream create(String name, short replication, long blockSize, String policy) throws IOException {
    FileSystem f = fs();
    if (!policy.isEmpty() && f instanceof DistributedFileSystem dfs) {
      return dfs.createFile(pathOf(name)).permission(OBJECT_PERMISSION).replication(replication).blockSize(blockSize)
          .bufferSize(f.getConf().getInt("io.file.buffer.size", 4096)).storagePolicyName(policy).build();
    }
    return f.create(pathOf(name), OBJECT_PERMISSION, false, f.getConf().getInt("io.file.buffer.size", 4096),
        replication, blockSize, null);
  }

  FSDataOutputStream append(String name) throws IOException {
    FileSystem f = fs();
    return f.append(pathOf(name), f.getConf().getInt("io.file.buffer.size", 4096));
  }

  /** Capacity and usage of the data tier, which is where the bytes (and the space) are. */
  FsStatus status() throws IOException {
    return fs().getStatus();
  }

  FSDataInputStream open(String name) throws IOException {
    return fs().open(pathOf(name));
  }

  /** How many bytes of an object being written a new reader can see (HDFS: up to the last hflush). */
  long visibleLength(String name, FSDataInputStream in) throws IOException {
    if (in instanceof HdfsDataInputStream hdfs) {
      return hdfs.getVisibleLength();
    }
    return fs().getFileStatus(pathOf(name)).getLen();
  }

  BlockLocation[] blockLocations(String name, long start, long len) throws IOException {
    return fs().getFileBlockLocations(pathOf(name), start, len);
  }

  FileChecksum checksum(String name, long length) throws IOException {
    return fs().getFileChecksum(pathOf(name), length);
  }

  /** Copies a local file to {@code name} on the data tier (a published SST, IndexFS §II-D). */
  void upload(java.nio.file.Path local, String name) throws IOException {
    fs().copyFromLocalFile(false, true, new Path(local.toUri()), pathOf(name));
  }

  /** Best effort: removes an object this process created but could not record. */
  void deleteQuietly(String name) {
    try {
      fs().delete(pathOf(name), false);
    } catch (IOException e) {
      LOG.debug("Could not delete unrecorded data object {}; the server's scrubber will: {}", name, e.toString());
    }
  }

  @Override
  public synchronized void close() throws IOException {
    if (fs != null) {
      fs.close();
      fs = null;
    }
  }
}
