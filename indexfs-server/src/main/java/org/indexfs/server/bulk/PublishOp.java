package org.indexfs.server.bulk;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Code;
import org.indexfs.proto.PublishRequest;
import org.indexfs.proto.PublishResult;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.op.OpContext;
import org.indexfs.server.op.Operation;

/**
 * Publish (IndexFS §II-D): a holder of the localization of {@code path} hands in an SST file of
 * what it made there; the slot validates and ingests it ({@link BulkIngest}) and answers with what
 * it refused, by name and reason. With {@code release} the holder's lease ends afterwards.
 */
public final class PublishOp implements Operation {
  private final OpContext ctx;
  private final Localizer localizer;

  public PublishOp(OpContext ctx, Localizer localizer) {
    this.ctx = ctx;
    this.localizer = localizer;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    PublishRequest req = request.getPublish();
    if (req.getPhase() != PublishRequest.Phase.CLIENT) {
      return share(request);
    }
    String client = request.getCaller().getClientId();
    Inode dir = LocalizeOp.localizedDirectory(ctx, request, req.getPath()).last();
    Localization l = localizer.table().get(dir.inodeId);
    Localization.Holder holder = l == null ? null : l.holder(client);
    if (holder == null || holder.released() || localizer.table().remainingMs(dir.inodeId, client) == 0) {
      throw new IndexFsException(Code.LEASE_EXPIRED, "Client " + client + " holds no localization lease on "
          + req.getPath() + ": its lease expired (or was released) and nothing more of it is published");
    }
    PublishResult result = PublishResult.getDefaultInstance();
    if (!req.getFile().isEmpty()) {
      Inode root = ctx.ns().partition(dir.inodeId);
      result = localizer.ingest().publish(l, holder, root, req.getPath(), req.getFile());
    }
    if (req.getRelease()) {
      localizer.release(dir.inodeId, client, "published and released");
    } else if (!localizer.table().isContended(dir.inodeId)) {
      localizer.table().extend(dir.inodeId, client);
    }
    return Response.newBuilder().setPublishResult(result);
  }

  /** Between servers: a partition's slot's part in a publish into a split directory ({@link SplitPublish}). */
  private Response.Builder share(Request request) throws IOException {
    if (!ctx.access().isSuperuser(request.getCaller())) {
      throw new IndexFsException(Code.ACCESS_DENIED, "Only servers may take part in a split publish");
    }
    PublishRequest req = request.getPublish();
    PublishShare shares = localizer.ingest().shares();
    switch (req.getPhase()) {
      case PREPARE -> {
        return Response.newBuilder().setPublishResult(shares.prepare(req));
      }
      case COMMIT -> shares.commit(req.getTxid());
      case ABORT -> shares.abort(req.getTxid());
      default -> throw IndexFsException.invalidArgument("Unknown publish phase " + req.getPhase());
    }
    return Response.newBuilder();
  }
}
