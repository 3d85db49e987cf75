package org.indexfs.server.bulk;

import com.google.protobuf.ByteString;
import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.InodeIds;
import org.indexfs.proto.Code;
import org.indexfs.proto.LocalizeGrant;
import org.indexfs.proto.LocalizeRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.proto.SplitDir;
import org.indexfs.server.op.OpContext;
import org.indexfs.server.op.Operation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Between servers ({@link Mirrors}): MIRROR stores the home's localization record of a split
 * directory on a slot holding a partition of it (durable and journaled, as on the home) and
 * answers with this slot's bitmap of the directory; UNMIRROR ends it here (the partition may split
 * again); CONTEND, on the home, marks the directory asked for.
 */
final class MirrorOp implements Operation {
  private static final Logger LOG = LoggerFactory.getLogger(MirrorOp.class);

  private final OpContext ctx;
  private final Localizer localizer;

  MirrorOp(OpContext ctx, Localizer localizer) {
    this.ctx = ctx;
    this.localizer = localizer;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    if (!ctx.access().isSuperuser(request.getCaller())) {
      throw new IndexFsException(Code.ACCESS_DENIED, "Only servers may mirror localizations");
    }
    LocalizeRequest req = request.getLocalize();
    long dirId = req.getDirId();
    Localizations table = localizer.table();
    if (req.getSubtreeDirsCount() > 0) {
      return subtree(req, table);
    }
    switch (req.getAction()) {
      case MIRROR -> {
        Localization l = Localization.decode(req.getRecord().toByteArray());
        Localization before = table.get(dirId);
        ctx.ns().mutate(batch -> {
          table.put(batch, l);
          return null;
        });
        if (before == null) {
          LOG.info("Directory {}, split across slots, is localized: this slot's partition holds off other clients "
              + "and takes no split until its home ends it", InodeIds.format(dirId));
        }
      }
      case UNMIRROR -> {
        boolean had = table.get(dirId) != null;
        ctx.ns().mutate(batch -> {
          if (table.get(dirId) != null) {
            table.remove(batch, dirId);
          }
          return null;
        });
        if (had) {
          LOG.info("The localization of directory {} ended; this slot's partition is an ordinary one again",
              InodeIds.format(dirId));
          for (long dir : localizer.ingest().ended(dirId)) {
            ctx.splits().consider(dir);
          }
        }
      }
      case CONTEND -> table.contend(dirId);
      default -> throw IndexFsException.invalidArgument("Not a mirror action: " + req.getAction());
    }
    return Response.newBuilder().setLocalizeGrant(LocalizeGrant.newBuilder().setDirId(dirId)
        .setBitmap(ByteString.copyFrom(ctx.ns().bitmap(dirId).toBytes())));
  }

  /**
   * MIRROR / UNMIRROR on a slot homing directories inside the localized subtree, or holding a
   * partition of one that had split before the localization: the record is
   * kept (or dropped) as on a partition's slot, with its home noted when this slot holds no
   * partition of the localized directory (so its expiry stays the home's business); the
   * directories walked here take no split meanwhile (durably: the directories told are kept with
   * the record). Answers with the directories found here (with their homes), and those walked here that have split.
   */
  private Response.Builder subtree(LocalizeRequest req, Localizations table) throws IOException {
    long dirId = req.getDirId();
    LocalizeGrant.Builder g = LocalizeGrant.newBuilder().setDirId(dirId);
    java.util.List<Long> walked = new java.util.ArrayList<>();
    for (long d : req.getSubtreeDirsList()) {
      SubtreeDirs s = SubtreeDirs.scan(ctx.ns(), d);
      s.ids().forEach(walked::add);
      // Every directory found here, those homed here too: the home routes publishes into them.
      for (SubtreeDirs.Away a : s.found().values()) {
        g.addFoundDirs(a.inode().inodeId).addFoundSlots(a.slot()).addFoundParents(a.parentId())
            .addFoundNames(a.name()).addFoundInodes(ByteString.copyFrom(a.inode().encode()));
      }
      s.split().forEach((id, sp) -> g.addSplitDirs(SplitDir.newBuilder().setId(id).setZerothSlot(sp.zerothSlot())
          .setBitmap(ByteString.copyFrom(sp.bitmap().toBytes()))));
    }
    g.putAllPrincipals(ctx.ns().principals().table());
    if (req.getAction() == LocalizeRequest.Action.MIRROR) {
      Localization l = Localization.decode(req.getRecord().toByteArray());
      boolean before = table.get(dirId) != null;
      boolean partitionHere = ctx.ns().partition(dirId) != null;
      ctx.ns().mutate(batch -> {
        table.put(batch, l);
        if (!partitionHere) {
          table.putHome(batch, dirId, req.getHomeSlot());
        }
        // Durable, so a restart here keeps them from splitting (BulkIngest reloads the hold).
        table.putHeld(batch, dirId, req.getSubtreeDirsList());
        return null;
      });
      localizer.ingest().holdMirrored(dirId, walked);
      if (!before) {
        LOG.info("Directory {} is localized on slot {}: {} of its directories held here (homed, or a partition) hold "
            + "off other clients and take no split until it ends", InodeIds.format(dirId), req.getHomeSlot(),
            walked.size());
      }
    } else if (req.getAction() == LocalizeRequest.Action.UNMIRROR) {
      boolean had = table.get(dirId) != null;
      ctx.ns().mutate(batch -> {
        if (table.get(dirId) != null) {
          table.remove(batch, dirId);
        }
        return null;
      });
      for (long dir : localizer.ingest().ended(dirId)) {
        if (had) {
          ctx.splits().consider(dir);
        }
      }
      if (had) {
        LOG.info("The localization of directory {} ended; its directories homed here are ordinary ones again",
            InodeIds.format(dirId));
      }
    } else {
      throw IndexFsException.invalidArgument("Not a subtree mirror action: " + req.getAction());
    }
    return Response.newBuilder().setLocalizeGrant(g);
  }
}
