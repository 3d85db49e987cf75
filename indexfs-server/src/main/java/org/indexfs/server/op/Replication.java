package org.indexfs.server.op;

import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;

/** HDFS's bounds on a file's replication (BlockManager.verifyReplication, with dfs.replication.max at its default). */
final class Replication {
  static final int MAX = 512;

  private Replication() {}

  static void check(String path, int replication) throws IndexFsException {
    if (replication > MAX && replication <= Short.MAX_VALUE) {
      throw new IndexFsException(Code.REFUSED, "Requested replication factor of " + replication
          + " exceeds maximum of " + MAX + " for " + path);
    }
  }
}
