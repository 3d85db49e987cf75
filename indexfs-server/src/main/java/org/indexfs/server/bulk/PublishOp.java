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
      java.util.Map<Integer, String> importing = null;
      if (req.getImportEntries()) {
        if (!ctx.access().isSuperuser(request.getCaller())) {
          throw new IndexFsException(Code.ACCESS_DENIED, "Only a superuser may import entries (" + request.getCaller().getUser()
              + " is not one)");
        }
        importing = req.getPrincipalsMap();
      }
      result = localizer.ingest().publish(l, holder, root, req.getPath(), req.getFile(), importing);
    }
    // Nothing written yet (an empty publish): the lease's end carries the answer, so a resend
    // after a crash is answered, not refused LEASE_EXPIRED. After an ingest this does nothing.
    org.indexfs.server.retry.RetryCache.landsWith(ctx.ns(), Response.newBuilder().setPublishResult(result).build());
    afterPublish(dir.inodeId, client, req.getRelease());
    return Response.newBuilder().setPublishResult(result);
  }

  private void afterPublish(long dirId, String client, boolean release) throws IOException {
    if (release) {
      localizer.release(dirId, client, "published and released");
    } else if (!localizer.table().isContended(dirId)) {
      localizer.table().extend(dirId, client);
    }
  }

  /**
   * The answer to a resend of a publish that landed before its server stopped, its answer not
   * recorded ({@code first}: the answer its landed mark carries): the lease step the first try may
   * not have reached is taken now, if the holder still holds the lease.
   */
  public Response.Builder landed(Request request, Response first) throws IOException {
    String client = request.getCaller().getClientId();
    try {
      long dirId = LocalizeOp.localizedDirectory(ctx, request, request.getPublish().getPath()).last().inodeId;
      Localization l = localizer.table().get(dirId);
      Localization.Holder holder = l == null ? null : l.holder(client);
      if (holder != null && !holder.released() && localizer.table().remainingMs(dirId, client) > 0) {
        afterPublish(dirId, client, request.getPublish().getRelease());
      }
    } catch (IndexFsException gone) {
      // The directory or its lease is gone since: the publish's answer stands as it was.
    }
    return first.toBuilder();
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
