package org.indexfs.hadoop;

import java.io.IOException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * Who answers a call on one path of {@link IndexFileSystem}: the servers ({@link ServerBackend}),
 * a subtree this client has localized for bulk insertion ({@link LocalizedBackend}, IndexFS §II-D),
 * or a checked-out private copy ({@link CheckoutBackend}, issue 18's decoupled consistency).
 * {@link NamespaceBackends} picks one per path; the FileSystem asks it and nothing else. Paths are
 * absolute, as the servers see them; every permission has had its umask applied.
 */
interface NamespaceBackend {
  FSDataInputStream open(String path) throws IOException;

  FSDataOutputStream create(String path, FsPermission permission, boolean overwrite, short replication,
      long blockSize, boolean createParent) throws IOException;

  boolean mkdirs(String path, FsPermission permission) throws IOException;

  /** {@code FileSystem.delete}: false when nothing is there. */
  boolean delete(String path, boolean recursive) throws IOException;

  /** {@code FileSystem.rename}: false where HDFS answers false. */
  boolean rename(String src, String dst) throws IOException;

  /** {@code qualified}: the path as the caller's FileStatus carries it. */
  FileStatus getFileStatus(Path qualified, String path) throws IOException;

  /**
   * The entries of directory {@code dir} (a file lists itself), in HDFS order; {@code asGiven}: the
   * path as the caller wrote it (HDFS names it so in its error).
   */
  RemoteIterator<FileStatus> list(Path asGiven, Path dir, String path) throws IOException;

  /**
   * Before {@code call} of {@code path}, which only the servers answer (setPermission, append …): a
   * checked-out copy refuses it; a localized subtree publishes what is pending so the server sees it.
   */
  void beforeServerCall(String path, String call) throws IOException;
}
