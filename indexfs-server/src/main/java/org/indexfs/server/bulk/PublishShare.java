package org.indexfs.server.bulk;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Code;
import org.indexfs.proto.PublishRequest;
import org.indexfs.proto.PublishResult;
import org.indexfs.proto.Rejection;
import org.indexfs.proto.SubtreeDir;
import org.indexfs.server.FaultPoints;
import org.indexfs.server.op.OpContext;
import org.indexfs.server.split.PrincipalTranslation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A partition's slot in a publish into a split localized directory ({@link SplitPublish}): PREPARE
 * validates the share its home sent (against this slot's partition and the localization record
 * the home mirrored here) and stages it with a durable {@code bulk.part} record, holding the
 * directory (mutations inside retry) until COMMIT ingests it or ABORT drops it. Both are
 * idempotent: a COMMIT of a share no longer here was done; an ABORT of one never prepared here
 * leaves {@code bulk.void} so a late PREPARE is refused.
 */
final class PublishShare {
  private static final Logger LOG = LoggerFactory.getLogger(PublishShare.class);

  private final OpContext ctx;
  private final Localizations table;
  private final BulkIngest ingest;
  /** Per prepared share: the directories it puts entries in (their cached entries go at commit). */
  private final Map<String, Set<Long>> touched = new java.util.concurrent.ConcurrentHashMap<>();

  PublishShare(OpContext ctx, Localizations table, BulkIngest ingest) {
    this.ctx = ctx;
    this.table = table;
    this.ingest = ingest;
  }

  PublishResult prepare(PublishRequest req) throws IOException {
    String txid = req.getTxid();
    if (ingest.txns.isVoid(txid) || ingest.txns.part(txid) != null) {
      throw new IndexFsException(Code.STALE_RESOLUTION, "Publish " + txid + " was already prepared or aborted here");
    }
    Localization l = table.get(req.getDirId());
    Localization.Holder holder = l == null ? null : l.holder(req.getClientId());
    if (holder == null || holder.released()) {
      throw new IndexFsException(Code.LEASE_EXPIRED, "Client " + req.getClientId() + " holds no localization of "
          + req.getPath() + " on slot " + ctx.ns().slot());
    }
    Inode root = ctx.ns().partition(req.getDirId());
    SubtreeDirs dirs = SubtreeDirs.rootOnly(req.getDirId());
    for (SubtreeDir d : req.getSubtreeDirsList()) {
      dirs.add(d.getId(), new SubtreeDirs.Place(d.getParentId(), d.getName(), d.getRelPath()));
    }
    int home = table.mirrorOf(req.getDirId());
    if (root == null && req.getSubtreeDirsCount() > 0 && home >= 0) {
      // No partition of the root here, only directories of its subtree: the share holds no entry
      // of the root itself, which only names the localization and its home.
      root = new Inode();
      root.inodeId = req.getDirId();
      root.type = Inode.TYPE_DIRECTORY;
      root.zerothSlot = home;
    }
    if (root == null) {
      throw new IndexFsException(Code.STALE_RESOLUTION, "Slot " + ctx.ns().slot() + " holds no partition of "
          + req.getPath() + " nor a directory of its subtree");
    }
    if (!table.beginPublish(req.getDirId())) {
      throw new IndexFsException(Code.STALE_RESOLUTION, "Another publish into " + req.getPath() + " is being ingested; retry");
    }
    Path fetched = ingest.staging().resolve(txid + ".part.in.sst");
    Path staged = ingest.staging().resolve(txid + ".part.sst");
    boolean kept = false;
    try {
      // Only a share its home shipped to the servers' own .bulk (issue 31): never a path a request names.
      ctx.data().fetchOwned(org.indexfs.server.data.ShippedFiles.share(req.getFile()), ctx.data().user(), fetched);
      // Owner and group ids are interned per slot: the home's become this slot's (as a split's do).
      PrincipalTranslation.of(req.getPrincipalsMap(), ctx.ns().principals()).rewrite(fetched);
      PublishPlan plan = new PublishPlan(ctx, l, holder, root, req.getPath(), dirs,
          new PublishPlan.Split(null, root.zerothSlot, true, Map.of(), null, Map.of()));
      boolean any = plan.run(fetched, staged);
      BulkIngest.Intent intent = ingest.stage(any ? staged : null, plan);
      ingest.keepCopy(intent);
      ctx.ns().mutate(batch -> {
        ingest.txns.putPart(batch, new PublishTxns.Part(txid, req.getDirId(), intent));
        return null;
      });
      kept = true;
      // From here until COMMIT or ABORT nobody reads here what another slot may already show otherwise.
      table.holdWalks(req.getDirId());
      touched.put(txid, new java.util.HashSet<>(plan.touched));
      FaultPoints.at("publish.share.prepared");
      for (Rejection r : plan.rejections) {
        LOG.warn("Publish {} into {} by client {} ({}) refused {}: {}", txid, req.getPath(), holder.clientId(),
            holder.user(), r.getPath(), r.getReason());
      }
      LOG.info("Prepared {} entries of publish {} into {} ({} refused)", plan.accepted, txid, req.getPath(),
          plan.rejections.size());
      return PublishResult.newBuilder().setIngested(plan.accepted).addAllRejected(plan.rejections)
          .addAllRefusedDirs(plan.refusedNewDirs).build();
    } finally {
      Files.deleteIfExists(fetched);
      Files.deleteIfExists(staged.resolveSibling(staged.getFileName() + ".direct"));
      if (!kept) {
        table.endPublish(req.getDirId());
        Files.deleteIfExists(staged);
        Files.deleteIfExists(staged.resolveSibling(staged.getFileName() + ".names"));
      }
    }
  }

  void commit(String txid) throws IOException {
    PublishTxns.Part part = ingest.txns.part(txid);
    if (part == null) {
      return; // committed before (its answer was lost)
    }
    ingest.commit(part.intent(), (batch, none) -> ingest.txns.dropPart(batch, txid));
    BulkIngest.Intent here = part.intent().in(ingest.staging());
    if (!here.file().isEmpty()) {
      Files.deleteIfExists(Path.of(here.file()));
    }
    Set<Long> forget = new java.util.HashSet<>(touched.getOrDefault(txid, Set.of()));
    forget.add(part.dirId());
    touched.remove(txid);
    ctx.ns().forgetDirectories(forget);
    table.releaseWalks(part.dirId());
    table.endPublish(part.dirId());
    LOG.info("Ingested the share of publish {} into directory {}", txid, BulkIngest.format(part.dirId()));
  }

  void abort(String txid) throws IOException {
    PublishTxns.Part part = ingest.txns.part(txid);
    ctx.ns().mutate(batch -> {
      if (part == null) {
        ingest.txns.putVoid(batch, txid);
      } else {
        ingest.txns.dropPart(batch, txid);
      }
      return null;
    });
    if (part != null) {
      ingest.dropCopy(part.intent());
      BulkIngest.Intent here = part.intent().in(ingest.staging());
      for (String f : new String[] {here.file(), here.namesFile()}) {
        if (!f.isEmpty()) {
          Files.deleteIfExists(Path.of(f));
        }
      }
      touched.remove(txid);
      table.releaseWalks(part.dirId());
      table.endPublish(part.dirId());
      LOG.info("Dropped the share of publish {} into directory {} (its home aborted it)", txid,
          BulkIngest.format(part.dirId()));
    }
  }
}
