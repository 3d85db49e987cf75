package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.Permission;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.BoolResult;
import org.indexfs.proto.Code;
import org.indexfs.proto.ContentSummary;
import org.indexfs.proto.PartitionRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;

/**
 * A peer server's request about a directory this slot is home to (DESIGN §7): keep its partition
 * record in step with its entry (which lives on the caller's slot), seal it for rmdir, drop it
 * after a delete, and the subtree work that fans out across slots. Only servers (the superuser)
 * may ask.
 */
public final class PartitionOp implements Operation {
  private final OpContext ctx;

  public PartitionOp(OpContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    if (!ctx.access().isSuperuser(request.getCaller())) {
      throw new IndexFsException(Code.ACCESS_DENIED, "Partition requests are for servers only, not "
          + request.getCaller().getUser());
    }
    PartitionRequest req = request.getPartition();
    long dirId = req.getDirId();
    switch (req.getAction()) {
      case PUT -> ctx.ns().mutate(batch -> {
        Inode dir = new Inode();
        dir.type = Inode.TYPE_DIRECTORY;
        dir.inodeId = dirId;
        dir.permission = req.getPermission() & Permission.MASK;
        dir.ownerId = ctx.ns().principals().idOf(req.getOwner());
        dir.groupId = ctx.ns().principals().idOf(req.getGroup());
        dir.mtime = dir.atime = req.getMtime();
        dir.zerothSlot = ctx.ns().slot();
        ctx.ns().putPartition(batch, dir);
        return null;
      });
      case SEAL -> ctx.ns().mutate(batch -> {
        Inode dir = ctx.ns().partition(dirId);
        if (dir == null) {
          return null;
        }
        if (!SubtreeWalk.isEmpty(ctx, dirId)) {
          throw new IndexFsException(Code.DIRECTORY_NOT_EMPTY, req.getPath() + " is not empty");
        }
        dir.flags |= Inode.FLAG_SEALED;
        ctx.ns().putPartition(batch, dir);
        return null;
      });
      case DROP -> {
        ctx.ns().mutate(batch -> {
          if (ctx.ns().partition(dirId) != null) {
            ctx.ns().deletePartition(batch, dirId);
            ctx.reclaimer().reclaimSubtree(batch, dirId);
          }
          return null;
        });
        ctx.reclaimer().wake();
      }
      case IS_EMPTY -> {
        boolean empty = ctx.ns().read(none -> SubtreeWalk.isEmpty(ctx, dirId));
        return Response.newBuilder().setBool(BoolResult.newBuilder().setValue(empty));
      }
      case CHECK_SUBTREE -> {
        Inode dir = ctx.ns().read(none -> ctx.ns().partition(dirId));
        if (dir != null) {
          Subtrees.checkHere(ctx, req.getChecked(), req.getPath(), dir);
        }
      }
      case SUMMARY -> {
        ContentSummary summary = Subtrees.summarize(ctx, req.getChecked(), req.getPath(), dirId);
        return Response.newBuilder().setSummary(summary);
      }
      default -> throw IndexFsException.invalidArgument("Unknown partition action " + req.getAction());
    }
    return Response.newBuilder();
  }
}
