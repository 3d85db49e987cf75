package org.indexfs.server.quota;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.QuotaGrant;
import org.indexfs.proto.QuotaRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.ns.AccessChecker;
import org.indexfs.server.op.Operation;

/** What slots ask each other about quotas ({@link QuotaHome}, {@link QuotaShares}); only servers may. */
public final class QuotaPeerOp implements Operation {
  private final QuotaHome home;
  private final QuotaShares shares;
  private final AccessChecker access;

  public QuotaPeerOp(QuotaHome home, QuotaShares shares, AccessChecker access) {
    this.home = home;
    this.shares = shares;
    this.access = access;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    if (!access.isSuperuser(request.getCaller())) {
      throw new IndexFsException(Code.ACCESS_DENIED, "Quota requests are for servers only");
    }
    QuotaRequest q = request.getQuota();
    QuotaGrant answer = switch (q.getAction()) {
      case DEFINE -> {
        home.define(q.getDirId(), q.getNsQuota(), q.getDsQuota(), q.getNsUsed(), q.getDsUsed());
        yield QuotaGrant.getDefaultInstance();
      }
      case GRANT -> home.grant(q);
      case RECALL -> shares.recall(q.getDirId(), q.getSeq());
      case FORGET -> {
        shares.forget(q.getDirId());
        yield QuotaGrant.getDefaultInstance();
      }
      case GET -> {
        QuotaHome.Definition d = home.definition(q.getDirId());
        yield d == null ? QuotaGrant.getDefaultInstance()
            : QuotaGrant.newBuilder().setDefined(true).setNsQuota(d.entries()).setDsQuota(d.space()).build();
      }
      default -> throw IndexFsException.invalidArgument("Unknown quota action " + q.getAction());
    };
    return Response.newBuilder().setQuotaGrant(answer);
  }
}
