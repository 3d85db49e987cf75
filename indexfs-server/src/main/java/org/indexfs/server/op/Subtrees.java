package org.indexfs.server.op;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.indexfs.common.Permission;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Caller;
import org.indexfs.proto.ContentSummary;
import org.indexfs.proto.PartitionRequest;
import org.indexfs.proto.PartitionRequest.Action;
import org.indexfs.proto.Request;
import org.indexfs.proto.SubtreePart;
import org.indexfs.proto.SubtreeStep;

/**
 * Work over a whole subtree that may span slots (DESIGN §7). The slot the call came to drives it:
 * it keeps a stack of {@link SubtreeStep}s, walks those on this slot under its read lock and asks
 * the other slots for theirs (after releasing the lock); every step answers what it counted and
 * the steps left. No slot asks another on behalf of a third, so however often a deep tree crosses
 * slots, each walk holds one handler thread waiting for one peer at a time (before issue 31 each
 * crossing nested one more call, and a tree deeper than the handler pools blocked them all).
 */
final class Subtrees {
  private Subtrees() {}

  /** Lengths and counts below directory {@code dirId} (not counting it), READ_EXECUTE on each directory. */
  static ContentSummary summarize(OpContext ctx, Caller caller, String path, long dirId) throws IOException {
    return drive(ctx, Action.SUMMARY, caller, SubtreeWalk.step(dirId, path, ctx.ns().slot(), false), false);
  }

  /**
   * What directory {@code dir} and everything below it count against quotas: {entries, space,
   * its id}. Counted from its home (which may be another slot than its entry's) down, as the
   * superuser: no caller's permissions matter for bookkeeping.
   */
  static long[] usageOf(OpContext ctx, String path, Inode dir) throws IOException {
    Caller servers = Caller.newBuilder().setUser(ctx.access().superuser()).build();
    ContentSummary below = drive(ctx, Action.SUMMARY, servers,
        SubtreeWalk.step(dir.inodeId, path, dir.zerothSlot, false), false);
    return new long[] {1 + below.getDirectoryCount() + below.getFileCount(), below.getSpaceConsumed(), dir.inodeId};
  }

  /**
   * Recursive delete's check (FSDirDeleteOp: ALL on every non-empty directory) for the parts of
   * the subtree below {@code dirId} that live on other slots; the local part is checked under
   * the write lock by the delete itself.
   */
  static void checkRemoteParts(OpContext ctx, Caller caller, String path, long dirId) throws IOException {
    drive(ctx, Action.CHECK_SUBTREE, caller, SubtreeWalk.step(dirId, path, ctx.ns().slot(), false), true);
  }

  /** As {@link #checkRemoteParts} for a directory homed on another slot: all of it, itself included. */
  static void checkAtHome(OpContext ctx, Caller caller, String path, Inode dir) throws IOException {
    drive(ctx, Action.CHECK_SUBTREE, caller, SubtreeWalk.step(dir.inodeId, path, dir.zerothSlot, false), false);
  }

  /**
   * Runs a walk to its end from this thread: {@code first} and every step it leads to, depth
   * first. {@code localFirst}: the first step (here) only finds the way to the other slots.
   */
  private static ContentSummary drive(OpContext ctx, Action action, Caller caller, SubtreeStep first,
      boolean localFirst) throws IOException {
    long[] totals = new long[4];
    Deque<SubtreeStep> todo = new ArrayDeque<>();
    todo.push(first);
    boolean firstStep = true;
    while (!todo.isEmpty()) {
      SubtreeStep step = todo.pop();
      SubtreePart part;
      if (step.getSlot() == ctx.ns().slot()) {
        boolean findOnly = firstStep && localFirst;
        // Unbounded here: the answer is not sent anywhere, and the lock is released between steps.
        part = ctx.ns().read(none -> stepHere(ctx, action, caller, step, Long.MAX_VALUE, findOnly));
      } else {
        part = ctx.peers().call(step.getSlot(), Request.newBuilder().setPartition(PartitionRequest.newBuilder()
            .setAction(action).setDirId(step.getDirId()).setPath(step.getPath()).setStep(step).setChecked(caller)
            .setAccess(Permission.ALL))).getSubtreePart();
      }
      firstStep = false;
      ContentSummary s = part.getSummary();
      totals[0] += s.getLength();
      totals[1] += s.getFileCount();
      totals[2] += s.getDirectoryCount();
      totals[3] += s.getSpaceConsumed();
      List<SubtreeStep> more = part.getMoreList();
      for (int i = more.size() - 1; i >= 0; i--) {
        todo.push(more.get(i));
      }
    }
    return ContentSummary.newBuilder().setLength(totals[0]).setFileCount(totals[1])
        .setDirectoryCount(totals[2]).setSpaceConsumed(totals[3]).build();
  }

  /**
   * One step of a walk on this slot, for the driver here or a peer's (call under the read lock):
   * SUMMARY counts each entry and checks READ_EXECUTE on each directory; CHECK_SUBTREE checks ALL on
   * every non-empty directory homed here, the step's own one first when not yet {@code entered}.
   * {@code findOnly}: no counts, no checks, only the steps left.
   */
  static SubtreePart stepHere(OpContext ctx, Action action, Caller caller, SubtreeStep step, long budget,
      boolean findOnly) throws IOException {
    long[] t = new long[4];
    SubtreeWalk.Visitor visitor;
    if (findOnly) {
      visitor = (path, inode) -> { };
    } else if (action == Action.SUMMARY) {
      visitor = (path, inode) -> {
        if (inode.isDirectory()) {
          ctx.access().checkSubtreeDirectory(caller, path, inode, Permission.READ_EXECUTE);
        }
        add(t, inode);
      };
    } else {
      if (!step.getEntered()) {
        // At a directory's home or partition: ALL on it when it holds entries here.
        Inode dir = ctx.ns().partition(step.getDirId());
        if (dir == null) {
          return SubtreePart.getDefaultInstance();
        }
        if (!SubtreeWalk.isEmpty(ctx, dir.inodeId)) {
          ctx.access().checkSubtreeDirectory(caller, step.getPath(), dir, Permission.ALL);
        }
      }
      visitor = (path, inode) -> {
        if (inode.isDirectory() && inode.zerothSlot == ctx.ns().slot() && !SubtreeWalk.isEmpty(ctx, inode.inodeId)) {
          ctx.access().checkSubtreeDirectory(caller, path, inode, Permission.ALL);
        }
      };
    }
    List<SubtreeStep> more = SubtreeWalk.walk(ctx, step, visitor, budget);
    return SubtreePart.newBuilder().setSummary(ContentSummary.newBuilder().setLength(t[0]).setFileCount(t[1])
        .setDirectoryCount(t[2]).setSpaceConsumed(t[3])).addAllMore(more).build();
  }

  /** A peer's step: what its answer may hold, well inside a frame. */
  static long peerBudget(OpContext ctx) {
    return Math.max(4096, ctx.peers().maxFrameBytes() / 4);
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
}
