package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Code;
import org.indexfs.proto.Request;
import org.indexfs.server.ns.ResolvedPath;

/**
 * Access times as HDFS keeps them ({@code dfs.namenode.accesstime.precision}): reading a file
 * moves its atime to now when it is older than the precision, so a file read all day is written
 * once an hour, not on every read; a precision of 0 turns access times off, and then setting one
 * is refused.
 */
public final class AccessTimes {
  private final long precisionMs;

  public AccessTimes(long precisionMs) {
    this.precisionMs = precisionMs;
  }

  /** HDFS's refusal of {@code setTimes} with an access time while they are off. */
  void checkSettable(long atime) throws IndexFsException {
    if (atime >= 0 && precisionMs <= 0) {
      throw new IndexFsException(Code.REFUSED, "Access time for hdfs is not configured. "
          + " Please set dfs.namenode.accesstime.precision configuration parameter.");
    }
  }

  /**
   * After a read of {@code seen} at {@code path}: records the access if its atime is older than
   * the precision. Best effort, as the read has succeeded: a file that moved meanwhile (a rename,
   * a split) gets its atime on a later read.
   */
  void touchOnRead(OpContext ctx, Request request, String path, Inode seen) throws IOException {
    long now = System.currentTimeMillis();
    if (precisionMs <= 0 || seen.isDirectory() || now <= seen.atime + precisionMs) {
      return;
    }
    try {
      // Locks only the file's directory; inside a call, the reply waits for it to be durable.
      ctx.ns().mutateLocked(m -> {
        ResolvedPath p = ctx.resolver().resolveForUpdate(m, request.getResolution(), path);
        Inode current = p.last();
        if (current == null || current.inodeId != seen.inodeId || !p.entryIsLocal(p.depth())
            || now <= current.atime + precisionMs) {
          return null;
        }
        Inode updated = current.copy();
        updated.atime = now;
        Entries.put(ctx.ns(), m.batch(), p, p.depth(), updated);
        return null;
      });
    } catch (IndexFsException moved) {
      // The entry is moving (or gone): the next read records the access.
    }
  }
}
