package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.schema.Inode;
import org.indexfs.server.ns.ResolvedPath;
import org.rocksdb.WriteBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Changes to a directory's entry that its partitions on other slots must learn (through {@code HomeSync}). */
final class HomeChanges {
  private static final Logger LOG = LoggerFactory.getLogger(HomeChanges.class);

  private HomeChanges() {}

  /**
   * When {@code dir} (the entry at {@code depth}) is a directory homed on another slot, records in
   * the batch that its home must learn the new attributes; returns its id to drive after the
   * commit, or -1 when there is nothing to sync.
   */
  static long record(OpContext ctx, WriteBatch batch, ResolvedPath p, int depth, Inode dir) throws IOException {
    if (!dir.isDirectory() || ctx.partitions().holdsWhole(dir)) {
      return -1;
    }
    ctx.homes().record(batch, dir.inodeId, dir.zerothSlot, Entries.parentIdAt(p, depth), Entries.nameAt(p, depth));
    return dir.inodeId;
  }

  /**
   * Drives a recorded sync; a failure leaves the intent for the periodic retry. The caller's change
   * is durable either way, so it is not failed (its home slot may be failing over, DESIGN §11).
   */
  static void drive(OpContext ctx, long dirId) throws IOException {
    if (dirId >= 0) {
      try {
        // Not the call's change: a failed call must not find itself marked applied by this write.
        ctx.ns().withoutCallMark(() -> {
          ctx.homes().drive(dirId);
          return null;
        });
      } catch (IndexFsException refused) {
        throw refused;
      } catch (IOException unreachable) {
        LOG.warn("Directory {}: its home slot did not answer ({}); the periodic sync retries",
            Long.toUnsignedString(dirId), unreachable.toString());
      }
    }
  }
}
