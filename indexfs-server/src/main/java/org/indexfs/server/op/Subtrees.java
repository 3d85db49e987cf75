package org.indexfs.server.op;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.indexfs.common.Permission;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Caller;
import org.indexfs.proto.ContentSummary;
import org.indexfs.proto.PartitionRequest;
import org.indexfs.proto.Request;
import org.indexfs.server.op.SubtreeWalk.RemoteDirectory;

/**
 * Work over a whole subtree that may span slots (DESIGN §7): each slot walks the part it holds
 * under its read lock, then asks the home slot of every directory it could not enter, after
 * releasing the lock.
 */
final class Subtrees {
  private Subtrees() {}

  /** Lengths and counts below directory {@code dirId} (not counting it), READ_EXECUTE on each directory. */
  static ContentSummary summarize(OpContext ctx, Caller caller, String path, long dirId) throws IOException {
    List<RemoteDirectory> remote = new ArrayList<>();
    long[] totals = ctx.ns().read(none -> {
      long[] t = new long[4]; // length, files, directories, space consumed
      SubtreeWalk.walk(ctx, path, dirId, (childPath, inode) -> {
        if (inode.isDirectory()) {
          ctx.access().checkSubtreeDirectory(caller, childPath, inode, Permission.READ_EXECUTE);
        }
        add(t, inode);
      }, remote);
      splitOff(ctx, path, dirId, remote);
      return t;
    });
    for (RemoteDirectory r : remote) {
      ContentSummary below = ctx.peers().call(r.slot(), Request.newBuilder().setPartition(
          PartitionRequest.newBuilder().setAction(PartitionRequest.Action.SUMMARY).setDirId(r.inode().inodeId)
              .setPath(r.path()).setChecked(caller))).getSummary();
      totals[0] += below.getLength();
      totals[1] += below.getFileCount();
      totals[2] += below.getDirectoryCount();
      totals[3] += below.getSpaceConsumed();
    }
    return ContentSummary.newBuilder().setLength(totals[0]).setFileCount(totals[1])
        .setDirectoryCount(totals[2]).setSpaceConsumed(totals[3]).build();
  }

  /**
   * What directory {@code dir} and everything below it count against quotas: {entries, space,
   * its id}. Counted from its home (which may be another slot than its entry's) down, as the
   * superuser: no caller's permissions matter for bookkeeping.
   */
  static long[] usageOf(OpContext ctx, String path, Inode dir) throws IOException {
    Caller servers = Caller.newBuilder().setUser(ctx.access().superuser()).build();
    ContentSummary below = dir.zerothSlot == ctx.ns().slot() ? summarize(ctx, servers, path, dir.inodeId)
        : ctx.peers().call(dir.zerothSlot, Request.newBuilder().setPartition(PartitionRequest.newBuilder()
            .setAction(PartitionRequest.Action.SUMMARY).setDirId(dir.inodeId).setPath(path).setChecked(servers)))
            .getSummary();
    return new long[] {1 + below.getDirectoryCount() + below.getFileCount(), below.getSpaceConsumed(), dir.inodeId};
  }

  /** The partitions split off this slot's partition of {@code dirId}: the walk continues there. */
  private static void splitOff(OpContext ctx, String path, long dirId, List<RemoteDirectory> remote)
      throws IOException {
    Inode record = ctx.ns().partition(dirId);
    if (record != null) {
      for (int slot : ctx.partitions().childSlots(dirId, record.zerothSlot)) {
        remote.add(new RemoteDirectory(path, record, slot));
      }
    }
  }

  static void add(long[] totals, Inode inode) {
    if (inode.isDirectory()) {
      totals[2]++;
    } else {
      totals[0] += inode.length;
      totals[1]++;
      totals[3] += inode.length * inode.replication;
    }
  }

  /**
   * Recursive delete's check (FSDirDeleteOp: ALL on every non-empty directory) for the parts of
   * the subtree below {@code dirId} that live on other slots; the local part is checked under
   * the write lock by the delete itself.
   */
  static void checkRemoteParts(OpContext ctx, Caller caller, String path, long dirId) throws IOException {
    List<RemoteDirectory> remote = new ArrayList<>();
    ctx.ns().read(none -> {
      SubtreeWalk.walk(ctx, path, dirId, (p, inode) -> { }, remote);
      splitOff(ctx, path, dirId, remote);
      return null;
    });
    askRemote(ctx, caller, remote);
  }

  /** At a directory's home: ALL on it when it holds entries here, and on every non-empty directory below. */
  static void checkHere(OpContext ctx, Caller caller, String path, Inode dir) throws IOException {
    List<RemoteDirectory> remote = new ArrayList<>();
    ctx.ns().read(none -> {
      if (!SubtreeWalk.isEmpty(ctx, dir.inodeId)) {
        ctx.access().checkSubtreeDirectory(caller, path, dir, Permission.ALL);
      }
      SubtreeWalk.walk(ctx, path, dir.inodeId, (p, inode) -> {
        if (inode.isDirectory() && inode.zerothSlot == ctx.ns().slot() && !SubtreeWalk.isEmpty(ctx, inode.inodeId)) {
          ctx.access().checkSubtreeDirectory(caller, p, inode, Permission.ALL);
        }
      }, remote);
      splitOff(ctx, path, dir.inodeId, remote);
      return null;
    });
    askRemote(ctx, caller, remote);
  }

  private static void askRemote(OpContext ctx, Caller caller, List<RemoteDirectory> remote) throws IOException {
    for (RemoteDirectory r : remote) {
      ctx.peers().call(r.slot(), Request.newBuilder().setPartition(PartitionRequest.newBuilder()
          .setAction(PartitionRequest.Action.CHECK_SUBTREE).setDirId(r.inode().inodeId).setPath(r.path())
          .setChecked(caller).setAccess(Permission.ALL)));
    }
  }
}
