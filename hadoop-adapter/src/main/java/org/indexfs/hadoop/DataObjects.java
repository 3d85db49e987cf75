package org.indexfs.hadoop;

import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.apache.hadoop.security.UserGroupInformation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data objects of large files on the underlying Hadoop FS (DESIGN §6): write-once files named
 * {@code <data.uri>/<slot>/<id>} ({@link org.indexfs.common.ObjectNames}), written and read with
 * that FS's stock client (on HDFS: {@code DistributedFileSystem}, so block data flows between this
 * process and the DataNodes exactly as for any HDFS file). Names never change; renames and chmods
 * never touch them. An object starts as its writer's alone (0600, no umask); once the server has
 * recorded it, the object carries its file's owner, group and mode, and chmod and chown of the file
 * reach it (DESIGN §14), so HDFS refuses whoever IndexFS refuses. A reader checks on HDFS that the
 * object still is its file's (its owner, then the very inode it looked at) before it trusts a byte
 * (issue 31): an object replaced on the data tier is refused, not read.
 *
 * <p>Everything here runs as the user this FileSystem was made for ({@code ugi}), whichever thread
 * calls: the data tier must see the same user IndexFS does.
 */
final class DataObjects implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DataObjects.class);
  /** The writer's alone until the server gives it its file's owner, group and mode (FlushOp). */
  private static final FsPermission OBJECT_PERMISSION = new FsPermission((short) 0600);
  /** A directory of this user's own on the data tier (publish, client journals): nobody else's. */
  private static final FsPermission PRIVATE_DIRECTORY = new FsPermission((short) 0700);

  private final String dataUri;
  private final Configuration conf;
  private final UserGroupInformation ugi;
  private FileSystem fs;

  DataObjects(String dataUri, Configuration conf, UserGroupInformation ugi) {
    this.dataUri = dataUri;
    this.conf = conf;
    this.ugi = ugi;
  }

  /** The user the data tier sees: the short name of this FileSystem's user. */
  String user() {
    return ugi.getShortUserName();
  }

  /** Made on first use: most FileSystem instances never touch a data object. */
  private synchronized FileSystem fs() throws IOException {
    if (dataUri.isEmpty()) {
      throw new IOException("This IndexFS cluster has no indexfs.data.uri: files above the inline limit cannot be stored");
    }
    if (fs == null) {
      Configuration objectConf = new Configuration(conf);
      objectConf.set("fs.permissions.umask-mode", "000");
      try {
        fs = ugi.doAs((java.security.PrivilegedExceptionAction<FileSystem>) () ->
            FileSystem.newInstance(URI.create(dataUri), objectConf));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("Interrupted opening the data tier " + dataUri);
      }
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

  /**
   * Appends to object {@code name} of file {@code path}, owned by {@code owner}: on HDFS only to an
   * object that still is the file's (as {@link #open} reads one), so nothing of the writer's goes
   * into an object someone else put in its place.
   */
  FSDataOutputStream append(String name, String owner, String path) throws IOException {
    FileSystem f = fs();
    if (f instanceof DistributedFileSystem) {
      checkOwner(f.getFileStatus(pathOf(name)), owner, path);
    }
    return f.append(pathOf(name), f.getConf().getInt("io.file.buffer.size", 4096));
  }

  private void checkOwner(FileStatus st, String owner, String path) throws IOException {
    if (!st.isFile() || !st.getOwner().equals(owner) && !st.getOwner().equals(user())) {
      throw new IOException("The data object of " + path + " was replaced on the data tier (it belongs to "
          + st.getOwner() + ", not to the file's owner " + owner + "): its bytes are not the file's");
    }
  }

  /** Capacity and usage of the data tier, which is where the bytes (and the space) are. */
  FsStatus status() throws IOException {
    return fs().getStatus();
  }

  /**
   * Opens object {@code name} of file {@code path}, owned by {@code owner}. On HDFS the object must
   * belong to the file's owner (chown and follow keep them equal) or to this user (a writer reading
   * what it wrote before the server made it the file's), and is then read by its inode, so an
   * object replaced meanwhile (or during the read) is refused too. Other file systems have no owners to check (a local
   * directory has one OS user for everyone).
   */
  FSDataInputStream open(String name, String owner, String path) throws IOException {
    FileSystem f = fs();
    Path object = pathOf(name);
    if (!(f instanceof DistributedFileSystem)) {
      return f.open(object);
    }
    FileStatus st = f.getFileStatus(object);
    checkOwner(st, owner, path);
    // By its inode from here on (HDFS's /.reserved/.inodes/<id>): later blocks come from the same
    // object too. An object in a snapshot is read at its snapshot path (its inode is the live one's),
    // the inode still checked at open.
    boolean inSnapshot = name.startsWith(".snapshot/");
    return f.open(f.getPathHandle(st, org.apache.hadoop.fs.Options.HandleOpt.changed(true),
        org.apache.hadoop.fs.Options.HandleOpt.moved(!inSnapshot)));
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

  /** The data tier's checksum of object {@code name} of file {@code path}: only of an object that still is the file's. */
  FileChecksum checksum(String name, long length, String owner, String path) throws IOException {
    FileSystem f = fs();
    if (f instanceof DistributedFileSystem) {
      checkOwner(f.getFileStatus(pathOf(name)), owner, path);
    }
    return f.getFileChecksum(pathOf(name), length);
  }

  /**
   * Copies a local file to {@code name} in {@code directory} on the data tier (a published SST,
   * IndexFS §II-D): the directory made 0700 if missing (non-recursively: its parent is the
   * servers'), the file 0600 from its creation, both this user's alone.
   */
  void uploadPrivate(java.nio.file.Path local, String directory, String name) throws IOException {
    FileSystem f = fs();
    privateDirectory(directory);
    Path target = pathOf(name);
    try (FSDataOutputStream out = f.create(target, OBJECT_PERMISSION, false, f.getConf().getInt("io.file.buffer.size",
        4096), f.getDefaultReplication(target), f.getDefaultBlockSize(target), null)) {
      java.nio.file.Files.copy(local, out);
    }
  }

  /**
   * Makes {@code directory} (relative to the data tier) this user's own, 0700, unless it is
   * already; on HDFS one that exists must belong to this user (else someone made it first, and
   * nothing of this user's goes there).
   */
  void privateDirectory(String directory) throws IOException {
    FileSystem f = fs();
    Path dir = pathOf(directory);
    if (!f.exists(dir)) {
      try {
        if (f instanceof DistributedFileSystem dfs) {
          dfs.mkdir(dir, PRIVATE_DIRECTORY); // its parent is made by the servers, never by a user
        } else {
          f.mkdirs(dir, PRIVATE_DIRECTORY);
        }
      } catch (org.apache.hadoop.fs.FileAlreadyExistsException raced) {
        // made by another thread of this user meanwhile: checked below
      }
    }
    if (f instanceof DistributedFileSystem) {
      FileStatus st = f.getFileLinkStatus(dir);
      if (!st.isDirectory() || !st.getOwner().equals(user())) {
        throw new org.apache.hadoop.security.AccessControlException("Data tier directory " + dir + " belongs to "
            + st.getOwner() + ", not to " + user() + ": nothing of " + user() + "'s is put there (an operator must "
            + "remove it)");
      }
    }
  }

  /** The data tier's status of {@code name} without following a link, or null if it does not exist. */
  FileStatus statusOrNull(String name) throws IOException {
    try {
      return fs().getFileLinkStatus(pathOf(name));
    } catch (java.io.FileNotFoundException e) {
      return null;
    }
  }

  /** True where the data tier has owners to check (HDFS); a local directory has one OS user for everyone. */
  boolean checksOwners() throws IOException {
    return fs() instanceof DistributedFileSystem;
  }

  /** Best effort: removes a directory of this user's and what is in it. */
  void deleteDirectoryQuietly(String name) {
    try {
      fs().delete(pathOf(name), true);
    } catch (IOException e) {
      LOG.debug("Could not delete {} on the data tier: {}", name, e.toString());
    }
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
