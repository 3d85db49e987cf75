package org.indexfs.server.quota;

import org.indexfs.common.schema.Inode;

/**
 * What an entry counts against the quotas above it, as HDFS counts it: one name, and for a file
 * its length times its replication (a file being written counts what it holds so far).
 */
public final class Usage {
  private Usage() {}

  public static long space(Inode entry) {
    return entry == null || entry.isDirectory() ? 0 : entry.length * entry.replication;
  }

  /**
   * What HDFS holds against a space quota for a file being written to {@code length} bytes: its
   * complete blocks, and its last block at the full preferred block size (FSDirWriteFileOp.addBlock
   * checks with that, so that is what its refusals report).
   */
  public static long spaceWhileWriting(long length, long blockSize, int replication) {
    if (length <= 0 || blockSize <= 0) {
      return 0;
    }
    long blocks = (length + blockSize - 1) / blockSize;
    return blocks * blockSize * replication;
  }
}
