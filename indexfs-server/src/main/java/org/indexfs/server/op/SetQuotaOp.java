package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.proto.ContentSummary;
import org.indexfs.proto.QuotaGrant;
import org.indexfs.proto.QuotaRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.proto.SetQuotaRequest;
import org.indexfs.server.ns.ResolvedPath;
import org.indexfs.server.quota.QuotaHome;

/**
 * {@code setQuota} as HDFS's FSDirAttrOp (what {@code hdfs dfsadmin -setQuota/-clrQuota/
 * -setSpaceQuota/-clrSpaceQuota} send): superuser only; Long.MAX_VALUE leaves a quota as it is and
 * -1 clears it. The quotas live at the directory's home ({@link QuotaHome}); a directory that gets
 * its first quota is counted (its whole subtree, across slots) and starts from that usage. Then its
 * entry gains or loses {@link Inode#FLAG_QUOTA} like a chmod — clients' cached copies expire first,
 * so from then on every change below it is counted. Changes racing with this call itself may be
 * left out of the first count (HDFS holds its namespace lock for it); later ones are exact.
 */
public final class SetQuotaOp implements Operation {
  /** HdfsConstants.QUOTA_DONT_SET and QUOTA_RESET. */
  static final long DONT_SET = Long.MAX_VALUE;
  static final long RESET = -1L;

  private final OpContext ctx;
  private final QuotaHome home;

  public SetQuotaOp(OpContext ctx, QuotaHome home) {
    this.ctx = ctx;
    this.home = home;
  }

  /** HDFS's name for the call (FSNamesystem.getQuotaCommand), in its refusals and audit log. */
  public static String command(long ns, long ds) {
    if (ns == RESET && ds == DONT_SET) {
      return "clearQuota";
    } else if (ns == DONT_SET && ds == RESET) {
      return "clearSpaceQuota";
    } else if (ds == DONT_SET) {
      return "setQuota";
    }
    return "setSpaceQuota";
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    SetQuotaRequest req = request.getSetQuota();
    Caller caller = request.getCaller();
    long ns = req.getNsQuota();
    long ds = req.getDsQuota();
    if (ctx.access().enabled() && !ctx.access().isSuperuser(caller)) {
      throw new IndexFsException(Code.ACCESS_DENIED, "Access denied for user " + caller.getUser()
          + ". Superuser privilege is required for operation " + command(ns, ds));
    }
    if ((ns < 0 && ns != DONT_SET && ns != RESET) || (ds < 0 && ds != DONT_SET && ds != RESET)) {
      throw new IndexFsException(Code.REMOTE_JAVA_ILLEGAL_ARGUMENT,
          "Illegal value for nsQuota or ssQuota : " + ns + " and " + ds);
    }
    ResolvedPath p = ctx.ns().read(none -> ctx.resolver().resolve(request.getResolution(), req.getPath()));
    ctx.access().checkTraverse(caller, p);
    Inode dir = p.last();
    if (dir == null) {
      throw new IndexFsException(Code.FILE_NOT_FOUND, "Directory does not exist: " + req.getPath());
    }
    if (!dir.isDirectory()) {
      throw new IndexFsException(Code.REMOTE_NOT_DIRECTORY, "`" + req.getPath() + "': Is not a directory");
    }
    if (p.isRoot() && ns == RESET) {
      ns = Long.MAX_VALUE; // the root's namespace quota goes back to HDFS's default, Long.MAX_VALUE
    }
    QuotaGrant old = definition(dir);
    // HDFS's root always has a namespace quota: Long.MAX_VALUE unless one is set.
    long oldNs = old.getDefined() ? old.getNsQuota() : p.isRoot() ? Long.MAX_VALUE : RESET;
    long oldDs = old.getDefined() ? old.getDsQuota() : RESET;
    long newNs = ns == DONT_SET ? oldNs : ns;
    long newDs = ds == DONT_SET ? oldDs : ds;
    if (newNs == oldNs && newDs == oldDs) {
      return Response.newBuilder();
    }
    long[] usage = {0, 0};
    if (!old.getDefined()) {
      usage = Subtrees.usageOf(ctx, req.getPath(), dir); // the subtree as it is now
    }
    boolean has = (newNs >= 0 && !(p.isRoot() && newNs == Long.MAX_VALUE)) || newDs >= 0;
    QuotaRequest.Builder define = QuotaRequest.newBuilder().setAction(QuotaRequest.Action.DEFINE)
        .setDirId(dir.inodeId).setPath(req.getPath()).setNsQuota(has ? newNs : RESET).setDsQuota(has ? newDs : RESET)
        .setNsUsed(usage[0]).setDsUsed(usage[1]);
    if (dir.zerothSlot == ctx.ns().slot()) {
      home.define(dir.inodeId, define.getNsQuota(), define.getDsQuota(), usage[0], usage[1]);
    } else {
      ctx.peers().call(dir.zerothSlot, Request.newBuilder().setQuota(define));
    }
    if (has != dir.has(Inode.FLAG_QUOTA)) {
      flag(request, req.getPath(), has);
    }
    return Response.newBuilder();
  }

  private QuotaGrant definition(Inode dir) throws IOException {
    if (dir.zerothSlot == ctx.ns().slot()) {
      QuotaHome.Definition d = home.definition(dir.inodeId);
      return d == null ? QuotaGrant.getDefaultInstance()
          : QuotaGrant.newBuilder().setDefined(true).setNsQuota(d.entries()).setDsQuota(d.space()).build();
    }
    return ctx.peers().call(dir.zerothSlot, Request.newBuilder().setQuota(QuotaRequest.newBuilder()
        .setAction(QuotaRequest.Action.GET).setDirId(dir.inodeId))).getQuotaGrant();
  }

  /** Marks the directory's entry (and so its partitions) as having a quota, like a chmod. */
  private void flag(Request request, String path, boolean has) throws IOException {
    DirectoryFlags.set(ctx, request.getResolution(), path, Inode.FLAG_QUOTA, has);
  }
}
