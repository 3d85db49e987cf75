package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.Permission;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Caller;
import org.indexfs.proto.ContentSummary;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.ns.ResolvedPath;

/** {@code getContentSummary}: lengths and counts of a subtree; READ_EXECUTE on every directory in it. */
public final class ContentSummaryOp implements Operation {
  private final OpContext ctx;

  public ContentSummaryOp(OpContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    String path = request.getContentSummary().getPath();
    Caller caller = request.getCaller();
    ContentSummary summary = ctx.ns().read(none -> {
      ResolvedPath p = ctx.resolver().resolve(path);
      ctx.access().checkTraverse(caller, p);
      Inode top = p.last();
      if (top == null) {
        throw IndexFsException.notFound(path);
      }
      long[] totals = new long[4]; // length, files, directories, space consumed
      add(totals, top);
      if (top.isDirectory()) {
        ctx.access().checkSubtreeDirectory(caller, p.path(), top, Permission.READ_EXECUTE);
        SubtreeWalk.walk(ctx, p.path(), top.inodeId, (childPath, inode) -> {
          if (inode.isDirectory()) {
            ctx.access().checkSubtreeDirectory(caller, childPath, inode, Permission.READ_EXECUTE);
          }
          add(totals, inode);
        });
      }
      return ContentSummary.newBuilder().setLength(totals[0]).setFileCount(totals[1])
          .setDirectoryCount(totals[2]).setSpaceConsumed(totals[3]).build();
    });
    return Response.newBuilder().setSummary(summary);
  }

  private static void add(long[] totals, Inode inode) {
    if (inode.isDirectory()) {
      totals[2]++;
    } else {
      totals[0] += inode.length;
      totals[1]++;
      totals[3] += inode.length * inode.replication;
    }
  }
}
