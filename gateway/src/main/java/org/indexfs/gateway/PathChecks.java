package org.indexfs.gateway;

import org.apache.hadoop.fs.InvalidPathException;
import org.apache.hadoop.hdfs.DFSUtilClient;

/**
 * The NameNode's own checks of the names a call carries, made where it makes them and with its
 * words, before IndexFS sees the call: a stock client checks names itself, but the wire is open to
 * any client (hdfs-native, libhdfs3, a hand-made one), and a NameNode answers those as below.
 */
final class PathChecks {
  private PathChecks() {}

  /**
   * Paths resolved to be made or read (mkdirs, getFileInfo, a rename's destination): FSDirectory's
   * check, "Invalid path name Invalid file name: ...".
   */
  static void validName(String src) {
    if (!DFSUtilClient.isValidName(src)) {
      throw new InvalidPathException("Invalid file name: " + src);
    }
  }

  /** The path of a new file (NameNode's startFile): "Invalid path name ...". */
  static void validFileName(String src) {
    if (!DFSUtilClient.isValidName(src)) {
      throw new InvalidPathException(src);
    }
  }

  /**
   * Under {@code /.reserved} a NameNode has no entries to rename (IndexFS has no inode paths), so
   * its old rename answers false there, as for a path that does not exist.
   */
  static boolean reserved(String path) {
    return path.equals("/.reserved") || path.startsWith("/.reserved/");
  }
}
