package org.indexfs.server.bulk;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.Permission;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Code;
import org.indexfs.proto.LocalizeGrant;
import org.indexfs.proto.LocalizeRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.ns.ResolvedPath;
import org.indexfs.server.op.OpContext;
import org.indexfs.server.op.Operation;

/**
 * LOCALIZE / SHARED_LOCALIZE, renew and release (IndexFS §II-D), on the directory's home slot: the
 * directory must exist (the client makes it with mkdirs first) and the caller needs WRITE|EXECUTE on
 * it. A directory split across slots (GIGA+) is localized on each of them ({@link Mirrors}).
 */
public final class LocalizeOp implements Operation {
  private final OpContext ctx;
  private final Localizer localizer;

  public LocalizeOp(OpContext ctx, Localizer localizer) {
    this.ctx = ctx;
    this.localizer = localizer;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    LocalizeRequest req = request.getLocalize();
    switch (req.getAction()) {
      case MIRROR, UNMIRROR, CONTEND -> {
        return new MirrorOp(ctx, localizer).apply(request);
      }
      default -> { }
    }
    if (request.getCaller().getClientId().isEmpty()) {
      throw new IndexFsException(Code.BAD_REQUEST, "Localizing needs a client id");
    }
    ResolvedPath p = localizedDirectory(ctx, request, req.getPath());
    Inode dir = p.last();
    switch (req.getAction()) {
      case GRANT, RENEW -> {
        if (req.getAction() == LocalizeRequest.Action.GRANT) {
          ctx.access().checkSelf(request.getCaller(), p, Permission.WRITE_EXECUTE);
        }
        LocalizeGrant grant = localizer.grant(request.getCaller(), dir,
            req.getAction() == LocalizeRequest.Action.RENEW, req.getShared(), req.getIdsWanted());
        return Response.newBuilder().setLocalizeGrant(grant.toBuilder()
            .setDirectory(ctx.ns().toStatus(lastName(req.getPath()), dir))
            .setStoragePolicy(org.indexfs.server.ns.OwnStoragePolicy.effective(ctx.ns().attrs(), p,
                request.getResolution().getAncestorsList())));
      }
      case RELEASE -> {
        localizer.release(dir.inodeId, request.getCaller().getClientId(), "released");
        return Response.newBuilder();
      }
      default -> throw IndexFsException.invalidArgument("Unknown localize action " + req.getAction());
    }
  }

  /** The directory {@code path} names, walked into (this is its home slot); the walk asks for nothing. */
  static ResolvedPath localizedDirectory(OpContext ctx, Request request, String path) throws IOException {
    ResolvedPath p;
    try (Localizations.Exempt exempt = Localizations.exempt()) {
      p = ctx.ns().read(none -> ctx.resolver().resolveInto(request.getResolution(), path));
    }
    ctx.access().checkTraverse(request.getCaller(), p);
    Inode dir = p.last();
    if (dir == null) {
      throw IndexFsException.notFound(path);
    }
    if (!dir.isDirectory()) {
      throw new IndexFsException(Code.NOT_DIRECTORY, path + " is not a directory");
    }
    Inode record = ctx.ns().partition(dir.inodeId);
    if (record == null || record.zerothSlot != ctx.ns().slot()) {
      throw new IndexFsException(Code.STALE_RESOLUTION, path + " is not homed on slot " + ctx.ns().slot());
    }
    return p;
  }

  static String lastName(String path) {
    String p = path.endsWith("/") && path.length() > 1 ? path.substring(0, path.length() - 1) : path;
    return p.substring(p.lastIndexOf('/') + 1);
  }
}
