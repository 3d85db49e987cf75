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
import org.indexfs.server.quota.QuotaHome;

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
      summary = withQuotas(summary, top);
    }
    return Response.newBuilder().setSummary(summary);
  }

  /**
   * The directory's own quotas (this is its home, which keeps them). The root always has a
   * namespace quota in HDFS: Long.MAX_VALUE unless one is set.
   */
  private ContentSummary withQuotas(ContentSummary summary, Inode dir) throws IOException {
    QuotaHome.Definition d = dir.has(Inode.FLAG_QUOTA) ? QuotaHome.definition(ctx.ns().store(), dir.inodeId) : null;
    boolean root = dir.inodeId == org.indexfs.common.InodeIds.ROOT;
    long quota = d != null ? d.entries() : root ? Long.MAX_VALUE : -1;
    long spaceQuota = d != null ? d.space() : -1;
    return summary.toBuilder().setQuota(quota).setSpaceQuota(spaceQuota).build();
  }
}
