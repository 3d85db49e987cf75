package org.indexfs.server.bulk;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.giga.PartitionBitmap;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Code;
import org.indexfs.proto.PublishRequest;
import org.indexfs.proto.PublishResult;
import org.indexfs.proto.Rejection;
import org.indexfs.proto.Request;
import org.indexfs.proto.SubtreeDir;
import org.indexfs.server.FaultPoints;
import org.indexfs.server.op.OpContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A publish into a localized directory split across slots (GIGA+), driven by its home slot as a
 * two-phase commit with durable records on every participant ({@link PublishTxns}, the pattern of
 * the cross-slot rename):
 * <ol>
 *   <li>the home validates the whole file ({@link PublishPlan}): its own partition's entries are
 *       staged, each other partition's are written to a share file for its slot (the directory's
 *       whole bitmap comes from {@link Mirrors#push}, which also refreshes the record there);</li>
 *   <li>{@code bulk.tx} PREPARING is written; each partition's slot is asked to PREPARE its share:
 *       it validates the names there (free or the publisher's, GIGA+ range, the conflict rule) and
 *       stages it with a durable {@code bulk.part} record, answering with what it refused;</li>
 *   <li>the home re-plans without the new directories a partition refused (their entries are
 *       refused with them), then stages its own part with {@code bulk.tx} COMMITTED in one batch —
 *       the commit point — and ingests it ({@link BulkIngest#ingest});</li>
 *   <li>each partition's slot is told to COMMIT (ingest its staged share); then the record goes.</li>
 * </ol>
 * A failure before the commit point aborts every participant; after it, the publish is decided and
 * {@link #settleAll} (the localizer's monitor, and a restarted home) tells the participants that
 * have not heard. A restarted participant keeps its staged share and its directory held until its
 * home's word arrives. Fault points: {@code publish.tx.recorded}, {@code publish.aborted} (home: a
 * participant did not prepare; the caller is answered at once, the participants told by
 * {@link #settleAll}), {@code publish.unsettled} (home: a participant did not hear
 * COMMIT or ABORT, left to the next {@link #settleAll}),
 * {@code publish.prepared} (home),
 * {@code publish.share.prepared} (participant), then the home's ingest points, then
 * {@code publish.committed} (home: own part in, participants not told).
 */
final class SplitPublish {
  private static final Logger LOG = LoggerFactory.getLogger(SplitPublish.class);

  private final OpContext ctx;
  private final Localizations table;
  private final BulkIngest ingest;
  private final Mirrors mirrors;
  private final Set<String> inFlight = ConcurrentHashMap.newKeySet();

  SplitPublish(OpContext ctx, Localizations table, BulkIngest ingest, Mirrors mirrors) {
    this.ctx = ctx;
    this.table = table;
    this.ingest = ingest;
    this.mirrors = mirrors;
  }

  record Outcome(PublishPlan plan, List<Rejection> rejections, long accepted) {}

  /** True when a publish into {@code dirId} may reach other slots: its root split, or its subtree has directories elsewhere. */
  boolean spans(long dirId, SubtreeDirs subtree) throws IOException {
    return mirrors.split(dirId) || subtree.reachesOtherSlots();
  }

  /**
   * The directories of the subtree homed on other slots, as the walk of {@link Mirrors#pushSubtree}
   * finds them (it also refreshes the record there, with the holders' blocks); those homed here
   * whose entries are elsewhere join {@code subtree}. The subdirectories that had split go to
   * {@code splits}, with their whole bitmaps.
   */
  private Map<Long, PublishPlan.Remote> remoteDirs(Localization l, SubtreeDirs subtree,
      Map<Long, SubtreeDirs.Split> splits) throws IOException {
    Map<Long, PublishPlan.Remote> out = new HashMap<>();
    if (!subtree.reachesOtherSlots()) {
      return out;
    }
    Mirrors.Reach reach = mirrors.pushSubtree(l, subtree);
    splits.putAll(reach.split());
    subtree.placesOf(reach.away().values()).forEach((id, place) -> {
      SubtreeDirs.Away a = reach.away().get(id);
      if (a.slot() == ctx.ns().slot()) {
        subtree.add(id, place);
      } else {
        out.put(id, new PublishPlan.Remote(a.slot(), a.inode(), place));
      }
    });
    return out;
  }

  /**
   * PREPARE's list for {@code slot}: the directories it homes, or holds a partition of, that the
   * share may put entries in.
   */
  private List<SubtreeDir> dirsOn(int slot, Map<Long, PublishPlan.Remote> remote, Map<Long, SubtreeDirs.Split> splits,
      SubtreeDirs subtree) {
    Map<Long, SubtreeDirs.Place> on = new java.util.LinkedHashMap<>();
    remote.forEach((id, r) -> {
      if (r.slot() == slot) {
        on.put(id, r.place());
      }
    });
    int slots = ctx.partitions().slotCount();
    splits.forEach((id, sp) -> {
      SubtreeDirs.Place place = remote.containsKey(id) ? remote.get(id).place() : subtree.get(id);
      for (int index : sp.bitmap().partitions()) {
        if (place != null && org.indexfs.common.giga.GigaIndex.slotOf(sp.zerothSlot(), index, slots) == slot) {
          on.putIfAbsent(id, place);
        }
      }
    });
    List<SubtreeDir> out = new ArrayList<>();
    on.forEach((id, p) -> out.add(SubtreeDir.newBuilder().setId(id).setParentId(p.parentId()).setName(p.name())
        .setRelPath(p.relPath()).build()));
    return out;
  }

  Outcome run(Localization l, Localization.Holder publisher, Inode root, String rootPath, Path fetched, Path staged,
      SubtreeDirs subtree) throws IOException {
    String txid = UUID.randomUUID().toString();
    PartitionBitmap bitmap = mirrors.push(l);
    Map<Long, SubtreeDirs.Split> splits = new HashMap<>();
    Map<Long, PublishPlan.Remote> remote = remoteDirs(l, subtree, splits);
    Path shareBase = staged.resolveSibling(txid + ".share");
    PublishPlan plan = new PublishPlan(ctx, l, publisher, root, rootPath, subtree,
        new PublishPlan.Split(bitmap, ctx.ns().slot(), false, Map.of(), shareBase, remote, splits));
    boolean any = plan.run(fetched, staged);
    Map<Integer, String> shipped = new HashMap<>();
    try {
      if (plan.shares.isEmpty()) {
        if (any) {
          ingest.ingest(staged, plan, null, BulkIngest.result(plan.accepted, plan.rejections));
        } else {
          ingest.nothingIngested(BulkIngest.result(plan.accepted, plan.rejections));
        }
        return new Outcome(plan, plan.rejections, plan.accepted);
      }
      for (Map.Entry<Integer, Path> share : plan.shares.entrySet()) {
        String name = ".bulk/" + txid + "-" + share.getKey() + ".sst";
        ctx.data().upload(share.getValue(), name);
        shipped.put(share.getKey(), name);
      }
      PublishTxns.Tx tx = new PublishTxns.Tx(txid, l.dirId(), false, new ArrayList<>(plan.shares.keySet()), new byte[0]);
      // In flight before its record exists: settleAll (the localizer's monitor, every second) must
      // never see a PREPARING record of a call still running and abort it under the caller (CI saw
      // that: the participants voided the publish between the record and this mark).
      inFlight.add(txid);
      try {
        // Not the call's change (its decision is): the retry cache's applied mark stays for that batch.
        ctx.ns().prepare(batch -> {
          ingest.txns.putTx(batch, tx);
          return null;
        });
        return decide(tx, plan, any, l, publisher, root, rootPath, fetched, staged, subtree, bitmap, shipped, remote,
            splits);
      } finally {
        inFlight.remove(txid);
      }
    } finally {
      for (Path f : plan.shares.values()) {
        Files.deleteIfExists(f);
      }
      for (String name : shipped.values()) {
        try {
          ctx.data().delete(name);
        } catch (IOException e) {
          LOG.debug("Share file {} stays on the data tier: {}", name, e.toString());
        }
      }
    }
  }

  private Outcome decide(PublishTxns.Tx tx, PublishPlan first, boolean any, Localization l,
      Localization.Holder publisher, Inode root, String rootPath, Path fetched, Path staged, SubtreeDirs subtree,
      PartitionBitmap bitmap, Map<Integer, String> shipped, Map<Long, PublishPlan.Remote> remote,
      Map<Long, SubtreeDirs.Split> splits) throws IOException {
    FaultPoints.at("publish.tx.recorded");
    List<Rejection> rejections = new ArrayList<>();
    Map<Long, String> refused = new HashMap<>();
    long accepted = 0;
    try {
      for (int slot : tx.participants()) {
        // A slot known to be away fails its PREPARE at once: the client's call is waiting on it.
        PublishResult r = ctx.peers().callUnlessDown(slot, Request.newBuilder().setPublish(PublishRequest.newBuilder()
            .setPhase(PublishRequest.Phase.PREPARE).setTxid(tx.txid()).setDirId(tx.dirId()).setPath(rootPath)
            .setClientId(publisher.clientId()).setFile(shipped.get(slot))
            .addAllSubtreeDirs(dirsOn(slot, remote, splits, subtree))
            .putAllPrincipals(ctx.ns().principals().table()))).getPublishResult();
        accepted += r.getIngested();
        rejections.addAll(r.getRejectedList());
        for (long dir : r.getRefusedDirsList()) {
          refused.put(dir, "its directory's entry was refused by slot " + slot);
        }
      }
    } catch (IOException | RuntimeException e) {
      // Decided: the record stays PREPARING, which never commits once this call lets go of it. The
      // participants hear ABORT from settleAll (within a second), not inside the caller's call: a
      // slot that could not prepare is likely away, and telling it would take the peer call's 30 s.
      LOG.warn("Publish {} into {} did not prepare on every slot it reaches: aborted, its participants "
          + "told in the background ({})", tx.txid(), rootPath, e.toString());
      FaultPoints.at("publish.aborted");
      throw new IndexFsException(Code.SERVER_BUSY, "Publish into " + rootPath + " did not prepare on every slot "
          + "it reaches (" + e.getMessage() + "); nothing was published: retry");
    }
    FaultPoints.at("publish.prepared");
    PublishPlan plan = first;
    if (!refused.isEmpty()) {
      // A new directory refused by its partition takes its entries (all staged here) with it.
      Files.deleteIfExists(staged);
      plan = new PublishPlan(ctx, l, publisher, root, rootPath, subtree, new PublishPlan.Split(bitmap,
          ctx.ns().slot(), false, refused, staged.resolveSibling(tx.txid() + ".replan"), remote, splits));
      any = plan.run(fetched, staged);
      for (Path f : plan.shares.values()) {
        Files.deleteIfExists(f);
      }
    }
    rejections.addAll(0, plan.rejections);
    long all = plan.accepted + accepted;
    // Readers here wait from before the commit point until every participant has ingested its
    // share (they wait there from PREPARE on): no reader sees the publish on one slot and not on another.
    table.holdWalks(tx.dirId());
    try {
      // The decision carries the call's answer: a resend after a crash from here on gets it.
      ingest.ingest(any ? staged : null, plan, (batch, intentKey) -> ingest.txns.putTx(batch,
          new PublishTxns.Tx(tx.txid(), tx.dirId(), true, tx.participants(), intentKey)), BulkIngest.result(all, rejections));
      FaultPoints.at("publish.committed");
      settle(tx.decided());
    } finally {
      // Not decided (the staging batch failed): nothing to wait for. Decided and not settled: the
      // hold stays until settleAll has told every participant.
      ingest.releaseWalksUnlessUnsettled(tx.dirId());
    }
    return new Outcome(plan, rejections, all);
  }

  /**
   * Tells every participant of {@code tx} its outcome (COMMIT when decided, else ABORT), then drops
   * the record; a participant that does not answer leaves it for the next {@link #settleAll}.
   */
  private boolean settle(PublishTxns.Tx tx) {
    PublishRequest.Phase phase = tx.committed() ? PublishRequest.Phase.COMMIT : PublishRequest.Phase.ABORT;
    boolean all = true;
    for (int slot : tx.participants()) {
      try {
        ctx.peers().call(slot, Request.newBuilder().setPublish(PublishRequest.newBuilder().setPhase(phase)
            .setTxid(tx.txid()).setDirId(tx.dirId())));
      } catch (IOException e) {
        all = false;
        LOG.warn("Publish {}: slot {} has not heard {} yet (retried): {}", tx.txid(), slot, phase, e.toString());
        FaultPoints.at("publish.unsettled");
      }
    }
    if (!all) {
      return false;
    }
    try {
      ctx.ns().mutate(batch -> {
        ingest.txns.dropTx(batch, tx.txid());
        return null;
      });
    } catch (IOException e) {
      LOG.warn("Publish {}: its record stays (retried): {}", tx.txid(), e.toString());
      return false;
    }
    LOG.info("Publish {} into directory {}: every slot holding a partition {}", tx.txid(),
        BulkIngest.format(tx.dirId()), tx.committed() ? "ingested its share" : "dropped its share");
    return true;
  }

  /** Settles every record not being driven right now (after a restart, or a participant that was away). */
  void settleAll() {
    for (PublishTxns.Tx tx : ingest.txns.txs()) {
      if (!inFlight.contains(tx.txid()) && settle(tx)) {
        ingest.settled(tx.dirId());
      }
    }
  }
}
