package org.indexfs.server.op;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.indexfs.common.schema.NameHash;
import org.indexfs.proto.PartitionRequest;
import org.indexfs.server.Blocking;
import org.indexfs.server.ns.ResolvedPath;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The directories a mutation changed whose own entries live on other slots (a directory homed
 * elsewhere than its parent's partition, or a partition of a split directory): HDFS moves a
 * directory's mtime on every create, delete and rename in it, so once the mutation is committed
 * each such entry is told, before the caller gets its answer. Never under the namespace lock.
 */
final class DirectoryTouches {
  private static final Logger LOG = LoggerFactory.getLogger(DirectoryTouches.class);

  private record Touch(int slot, PartitionRequest request) {}

  private final List<Touch> pending = new ArrayList<>(2);

  /** The directory at {@code depth} of {@code p} changed at {@code now}; its entry is not on this slot. */
  void add(OpContext ctx, ResolvedPath p, int depth, long now) throws IOException {
    // Telling the other slot waits for it: not on an I/O thread. Checked here, inside the
    // mutation, so the call moves to the pool before anything is written.
    Blocking.check("raising the mtime of a directory whose entry is on another slot");
    long parentId = Entries.parentIdAt(p, depth);
    String name = Entries.nameAt(p, depth);
    int slot = depth == 0 ? 0 : ctx.partitions().ownerOf(p.inodeAt(depth - 1), NameHash.of(name));
    long dirId = p.inodeAt(depth).inodeId;
    // A mutation's work may run again (locks widened): its second pass replaces the first's touch.
    pending.removeIf(t -> t.request().getDirId() == dirId);
    pending.add(new Touch(slot, PartitionRequest.newBuilder().setAction(PartitionRequest.Action.TOUCH)
        .setDirId(p.inodeAt(depth).inodeId).setEntryParent(parentId).setEntryName(name).setMtime(now)
        .setPath(p.pathAt(depth)).build()));
  }

  /**
   * Tells every entry; the mutation stands whatever happens here, so failures are only logged.
   * Concurrent touches of one directory share a call ({@link TouchCoalescer}).
   */
  void send(OpContext ctx) {
    for (Touch t : pending) {
      try {
        TouchCoalescer.of(ctx.peers()).touch(t.slot(), t.request());
      } catch (IOException e) {
        LOG.warn("The mtime of {} (slot {}) could not be raised: {}", t.request().getPath(), t.slot(), e.toString());
      }
    }
    pending.clear();
  }
}
