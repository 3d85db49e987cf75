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
    Inode top = ctx.ns().read(none -> {
      ResolvedPath p = ctx.resolver().resolveInto(request.getResolution(), path);
      ctx.access().checkTraverse(caller, p);
      if (p.last() == null) {
        throw IndexFsException.notFound(path);
      }
      if (p.last().isDirectory()) {
        ctx.access().checkSubtreeDirectory(caller, p.path(), p.last(), Permission.READ_EXECUTE);
      }
      return p.last();
    });
    long[] totals = new long[4];
    Subtrees.add(totals, top);
    ContentSummary summary = ContentSummary.newBuilder().setLength(totals[0]).setFileCount(totals[1])
        .setDirectoryCount(totals[2]).setSpaceConsumed(totals[3]).build();
    if (top.isDirectory()) {
      ContentSummary below = Subtrees.summarize(ctx, caller, path, top.inodeId);
      summary = below.toBuilder().setDirectoryCount(below.getDirectoryCount() + 1).build();
    }
    return Response.newBuilder().setSummary(summary);
  }
}
