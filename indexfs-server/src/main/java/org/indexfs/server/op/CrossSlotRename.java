package org.indexfs.server.op;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.indexfs.common.ClusterPaths;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.Permission;
import org.indexfs.common.giga.GigaIndex;
import org.indexfs.common.giga.PartitionBitmap;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.AttrRow;
import org.indexfs.common.schema.NameHash;
import org.indexfs.proto.BoolResult;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.proto.RenameInRequest;
import org.indexfs.proto.RenameRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Resolution;
import org.indexfs.proto.Response;
import org.indexfs.server.ns.ResolvedPath;
import org.indexfs.server.store.AttrTable;
import org.indexfs.server.FaultPoints;
import org.indexfs.server.rename.RenameIntents;
import org.indexfs.server.rename.RenameIntents.Outgoing;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A rename whose destination directory lives on another slot, driven by the source's slot as a
 * two-phase commit with durable records on both sides (DESIGN §7):
 * <ol>
 *   <li>the source validates its side and records {@code rename.out} (naming the entry and the
 *       slot it will ask);</li>
 *   <li>the destination's slot validates its side and writes the entry with {@code rename.in}
 *       in one batch ({@link RenameInOp}) — the commit point;</li>
 *   <li>the source removes the entry and its record in one batch.</li>
 * </ol>
 * An answer that leaves the outcome unknown (a crash, a timeout) is settled by asking the
 * destination, which then also makes sure the rename can never land later; a restarted source
 * settles every record it finds. Directory renames hold the cluster's rename lock, so two of them
 * cannot build a cycle across slots.
 */
public final class CrossSlotRename {
  private static final Logger LOG = LoggerFactory.getLogger(CrossSlotRename.class);
  private static final int MAX_HOPS = 16;

  /** How long a rename whose destination does not answer keeps asking it before the client is told to retry. */
  private static final long SETTLE_WAIT_MS = 20_000;

  /** Told, inside the batch that settles it, how a cross-slot rename ended (the retry cache's record of the call). */
  @FunctionalInterface
  public interface Settled {
    void settled(org.rocksdb.WriteBatch batch, String txid, boolean landed) throws IOException;
  }

  private final OpContext ctx;
  private final RenameIntents intents;
  private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
  private volatile java.util.function.Function<Request, String> txids = r -> UUID.randomUUID().toString();
  private volatile Settled settled = (batch, txid, landed) -> {};
  /** Entries leaving this slot, as (parent id, name hash): no other mutation may touch them meanwhile. */
  private final Set<Moving> leaving = ConcurrentHashMap.newKeySet();

  private record Moving(long parentId, long nameHash) {}

  public CrossSlotRename(OpContext ctx, RenameIntents intents) {
    this.ctx = ctx;
    this.intents = intents;
  }

  /**
   * Names each rename's transaction after its call ({@code txids}) and reports how each settled
   * ({@code settled}), so that a retry of the call can find out (DESIGN §11).
   */
  public void useCallIds(java.util.function.Function<Request, String> txids, Settled settled) {
    this.txids = txids;
    this.settled = settled;
  }

  /**
   * True while the entry {@code hash} of directory {@code dirId} is being renamed away from this
   * slot: a mutation resolving through it retries (as one through a name moving in a split does),
   * so a second rename, a delete or an overwrite cannot act on an entry that has already landed
   * elsewhere. Reads still see it until phase 3 removes it.
   */
  public boolean isMoving(long dirId, long hash) {
    return !leaving.isEmpty() && leaving.contains(new Moving(dirId, hash));
  }

  /** As above, by name: hashed only while some entry is leaving (a walk asks for every component). */
  public boolean isMoving(long dirId, String name) {
    return !leaving.isEmpty() && leaving.contains(new Moving(dirId, NameHash.of(name)));
  }

  /**
   * True when an open rename record of this slot names an entry of directory {@code dirId} that a
   * split to partition {@code child} would move: the rename's last phase removes it here, so the
   * split waits ({@link org.indexfs.server.split.SplitManager#pinWhile}). Records are read from the
   * store, so one left by a crash or an unreachable destination pins as well as a running one.
   */
  public boolean pins(long dirId, int child) throws IOException {
    for (Outgoing o : intents.outgoing()) {
      if (o.parentId() == dirId && GigaIndex.movesTo(NameHash.of(o.name()), child)) {
        return true;
      }
    }
    return false;
  }

  Response.Builder run(Request request, Resolution dstKnown) throws IOException {
    RenameRequest req = request.getRename();
    // A directory rename waits for the cluster's rename lock before it claims its source entry,
    // so the entry is not held frozen while the lock is busy.
    Inode seen = ctx.ns().read(none -> ctx.resolver().resolve(request.getResolution(), req.getSrc()).last());
    boolean directory = seen != null && seen.isDirectory();
    if (directory) {
      // Its home learns what is pending before the entry leaves: afterwards the intent here would
      // find no entry and read the move as a delete.
      ctx.homes().drive(seen.inodeId);
    }
    InterProcessMutex lock = directory ? lock() : null;
    try {
      return run(request, dstKnown, lock);
    } finally {
      if (lock != null) {
        release(lock);
      }
    }
  }

  private Response.Builder run(Request request, Resolution dstKnown, InterProcessMutex held) throws IOException {
    RenameRequest req = request.getRename();
    Caller caller = request.getCaller();
    boolean exact = req.getMode() == RenameRequest.Mode.EXACT;
    String txid = txids.apply(request);
    int firstTarget = dstKnown.getAncestorsCount() == 0 ? 0
        : dstKnown.getAncestors(dstKnown.getAncestorsCount() - 1).getZerothSlot();
    inFlight.add(txid);
    Moving[] claimed = {null};
    boolean[] same = {false};
    try {
      Outgoing[] out = {null};
      List<AttrRow> rows = new ArrayList<>();
      List<Long> srcRoots = new ArrayList<>();
      Inode moving = ctx.ns().mutate(batch -> {
        ResolvedPath src = ctx.resolver().resolve(request.getResolution(), req.getSrc());
        ctx.access().checkTraverse(caller, src);
        if (!src.isRoot() && src.existingCount() >= src.depth() && src.parent() != null) {
          ctx.access().checkParent(caller, src, Permission.WRITE);
          if (src.last() != null) {
            ctx.access().checkStickyBit(caller, src);
          }
        }
        if (src.last() == null) {
          if (exact) {
            throw new IndexFsException(Code.FILE_NOT_FOUND, "rename source " + req.getSrc() + " is not found.");
          }
          return null;
        }
        if (src.isRoot()) {
          if (exact) {
            throw new IndexFsException(Code.RENAME_REFUSED, "rename source cannot be the root");
          }
          return null;
        }
        java.util.List<String> dstNames = ctx.resolver().parse(req.getDst());
        if (!exact && dstNames.equals(src.names().subList(0, src.depth() - 1))) {
          // Onto its own parent: "into" that directory names the source itself, which HDFS
          // (FSDirRenameOp.unprotectedRenameTo, dst equals src) answers true, changing nothing. The
          // parent's WRITE was checked above. Sending it on would make the destination's walk meet
          // the source this rename froze, and the two slots redirect each other forever.
          same[0] = true;
          return null;
        }
        if (org.indexfs.common.PathNames.isSameOrBelow(src.names(), dstNames)) {
          // The destination's walk would pass through the very entry that is leaving: HDFS's
          // answers (FSDirRenameOp.validateDestination) are known here.
          if (!exact) {
            // Onto itself, a directory means "into itself", which needs WRITE on it first.
            ctx.access().checkSelf(caller, src, Permission.WRITE);
            return null;
          }
          if (dstNames.equals(src.names())) {
            throw new IndexFsException(Code.FILE_ALREADY_EXISTS,
                "The source " + req.getSrc() + " and destination " + req.getDst() + " are the same");
          }
          throw new IndexFsException(Code.RENAME_REFUSED, "Rename destination " + req.getDst()
              + " is a directory or file under source " + req.getSrc());
        }
        if (src.last().isUnderConstruction()) {
          throw new IndexFsException(Code.UNSUPPORTED, "rename of " + req.getSrc()
              + " to another slot while it is open for writing is not supported yet");
        }
        if (src.last().isDirectory() && ctx.homes().pending(src.last().inodeId)) {
          // Changed again since it was synced above: that sync must reach its home first.
          throw new IndexFsException(Code.STALE_RESOLUTION, req.getSrc() + " is being synced with its home; retry");
        }
        for (Outgoing pending : intents.outgoing()) {
          if (pending.parentId() == src.parent().inodeId && pending.name().equals(src.lastName())) {
            // An earlier rename of this entry is still unsettled: its outcome decides what exists.
            throw new IndexFsException(Code.STALE_RESOLUTION, req.getSrc() + " is being renamed; retry");
          }
        }
        out[0] = new Outgoing(txid, src.parent().inodeId, src.lastName(), src.last().inodeId, firstTarget);
        intents.recordOutgoing(batch, out[0]);
        srcRoots.clear();
        for (org.indexfs.server.quota.QuotaRoot r : org.indexfs.server.quota.QuotaRoot.above(src, src.depth())) {
          srcRoots.add(r.dirId());
        }
        // Its xattrs and ACL travel with it, as they are now.
        rows.clear();
        if (AttrTable.hasRows(src.last())) {
          for (AttrTable.Row r : ctx.ns().attrs().rows(src.last().inodeId, null)) {
            rows.add(AttrRow.newBuilder().setKey(ByteString.copyFrom(r.key())).setValue(ByteString.copyFrom(r.value())).build());
          }
        }
        claimed[0] = new Moving(src.parent().inodeId, NameHash.of(src.lastName()));
        leaving.add(claimed[0]);
        return src.last();
      });
      if (moving == null) {
        return same[0] ? result(true, req.getSrc()) : result(false);
      }
      FaultPoints.at("out.recorded");
      InterProcessMutex lock = moving.isDirectory() && held == null ? lock() : null;
      try {
        String[] to = {""};
        return result(land(request, dstKnown, out[0], moving, rows, srcRoots, to), to[0]);
      } finally {
        if (lock != null) {
          release(lock);
        }
      }
    } finally {
      if (claimed[0] != null) {
        leaving.remove(claimed[0]);
      }
      inFlight.remove(txid);
    }
  }

  /** Phase 2 (routed like a client, one hop per slot the destination path crosses) and phase 3. */
  private boolean land(Request request, Resolution dstKnown, Outgoing out, Inode moving, List<AttrRow> rows,
      List<Long> srcRoots, String[] to) throws IOException {
    RenameRequest req = request.getRename();
    RenameInRequest.Builder in = RenameInRequest.newBuilder().addAllAttrs(rows).addAllSrcQuotaRoots(srcRoots)
        .setTxid(out.txid()).setSrc(req.getSrc())
        .setDst(req.getDst()).setMode(req.getMode()).setOverwrite(req.getOverwrite())
        .setEntry(ByteString.copyFrom(moving.encode())).setOwner(ctx.ns().principals().nameOf(moving.ownerId))
        .setGroup(ctx.ns().principals().nameOf(moving.groupId)).setChecked(request.getCaller());
    if (!moving.isDirectory()) {
      in.setNsCount(1).setDsCount(org.indexfs.server.quota.Usage.space(moving));
    }
    Resolution known = dstKnown;
    int target = out.target();
    java.util.List<String> dstNames = ctx.resolver().parse(req.getDst());
    String srcName = CreateOp.lastName(req.getSrc());
    java.util.Map<Long, PartitionBitmap> bitmaps = new java.util.HashMap<>();
    // A hop per slot the destination's path crosses, which a deep path may do once per level.
    for (int hop = 0; hop < MAX_HOPS + dstNames.size(); hop++) {
      if (target != out.target()) {
        Outgoing moved = new Outgoing(out.txid(), out.parentId(), out.name(), out.inodeId(), target);
        ctx.ns().mutate(batch -> {
          intents.recordOutgoing(batch, moved);
          return null;
        });
        out = moved;
      }
      Response answer;
      try {
        answer = ctx.peers().send(target, Request.newBuilder().setRenameIn(in).setDstResolution(known));
      } catch (IOException unreachable) {
        return settle(out, unreachable);
      }
      switch (answer.getCode()) {
        case OK -> {
          FaultPoints.at("out.landed");
          if (answer.getBool().getValue()) {
            to[0] = answer.getBool().getRenamedTo(); // where it landed, "into" a directory included
            finish(out, request);
            return true;
          }
          abandon(out);
          return false;
        }
        case COUNTS_NEEDED -> {
          // The destination lies under a quota the directory is not yet under: count its subtree.
          long[] usage = Subtrees.usageOf(ctx, req.getSrc(), moving);
          in.setNsCount(usage[0]).setDsCount(usage[1]);
          hop--;
        }
        case RESOLVE_ELSEWHERE -> {
          known = answer.getResolved();
          target = nextSlot(known, dstNames, srcName, bitmaps);
        }
        case STALE_RESOLUTION -> {
          // The destination's directories moved since they were resolved: walk again from the root.
          known = Resolution.getDefaultInstance();
          target = 0;
        }
        case INTERNAL_ERROR, SERVER_BUSY, NOT_SERVING, WRONG_SERVER -> {
          return settle(out, new IOException("slot " + target + ": " + answer.getMessage()));
        }
        default -> {
          // A refusal: the destination wrote nothing.
          abandon(out);
          throw new IndexFsException(answer.getCode(), answer.getMessage());
        }
      }
    }
    abandon(out);
    throw new IndexFsException(Code.STALE_RESOLUTION, "The destination " + req.getDst() + " kept moving");
  }

  /**
   * The slot to continue at, as a client routes (DESIGN §4): the partition of the last directory
   * walked that holds the next name, after every partition map heard on the way (a slot knows only
   * the partitions it split off, so the maps are merged, never replaced). When the walk reached
   * the destination itself (an existing directory a file moves into), the next name is the source's.
   */
  private int nextSlot(Resolution known, java.util.List<String> dstNames, String srcName,
      java.util.Map<Long, PartitionBitmap> bitmaps) {
    for (org.indexfs.proto.Ancestor a : known.getAncestorsList()) {
      if (!a.getBitmap().isEmpty()) {
        bitmaps.merge(a.getInodeId(), PartitionBitmap.fromBytes(a.getBitmap().toByteArray()), (x, y) -> {
          x.merge(y);
          return x;
        });
      }
    }
    int k = known.getAncestorsCount() - 1;
    org.indexfs.proto.Ancestor dir = known.getAncestors(k);
    PartitionBitmap bitmap = bitmaps.get(dir.getInodeId());
    if (bitmap == null) {
      return dir.getZerothSlot();
    }
    long hash = NameHash.of(k < dstNames.size() ? dstNames.get(k) : srcName);
    return GigaIndex.slotOf(dir.getZerothSlot(), GigaIndex.partitionOf(hash, bitmap), ctx.partitions().slotCount());
  }

  /** The destination's answer was lost: ask it what happened (this also closes the door on a late landing). */
  private boolean settle(Outgoing out, IOException why) throws IOException {
    Boolean landed = null;
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SETTLE_WAIT_MS);
    for (int attempt = 0; landed == null; attempt++) {
      try {
        landed = askLanded(out);
      } catch (IOException e) {
        // The destination may be failing over: ask again for a while before telling the client.
        if (System.nanoTime() > deadline) {
          LOG.warn("Rename {} is unsettled: slot {} did not answer ({})", out.txid(), out.target(), e.toString());
          throw new IndexFsException(Code.SERVER_BUSY, "Rename " + out.txid() + " is unsettled (slot " + out.target()
              + " unreachable); it completes or rolls back once that slot answers: retry");
        }
        pause(attempt);
      }
    }
    if (landed) {
      finish(out);
      return true;
    }
    // It never landed and now never will: nothing happened, so the client may try again.
    abandon(out);
    throw new IndexFsException(Code.SERVER_BUSY, "Rename " + out.txid() + " did not reach slot " + out.target()
        + " (" + why.getMessage() + "); nothing changed: retry");
  }

  private static void pause(int attempt) throws IOException {
    try {
      Thread.sleep(Math.min(2_000, 100L << Math.min(attempt, 5)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("Interrupted settling a rename");
    }
  }

  /**
   * Settles the open rename transaction whose id {@code txid} accepts now, unless it is running:
   * true if it landed (and is finished), false if it never will (rolled back), null if there is no
   * such open transaction.
   */
  public Boolean settleNow(java.util.function.Predicate<String> txid) throws IOException {
    for (Outgoing out : intents.outgoing()) {
      if (txid.test(out.txid()) && !inFlight.contains(out.txid())) {
        boolean landed;
        try {
          landed = askLanded(out);
        } catch (IOException e) {
          throw new IndexFsException(Code.SERVER_BUSY, "Rename " + out.txid() + " is unsettled (slot " + out.target()
              + " unreachable): retry");
        }
        if (landed) {
          finish(out);
        } else {
          abandon(out);
        }
        return landed;
      }
    }
    return null;
  }

  private boolean askLanded(Outgoing out) throws IOException {
    return ctx.peers().call(out.target(), Request.newBuilder().setRenameIn(RenameInRequest.newBuilder()
        .setTxid(out.txid()).setSettle(true))).getBool().getValue();
  }

  /** Phase 3: the entry has landed; remove it here with its record. */
  private void finish(Outgoing out) throws IOException {
    finish(out, null);
  }

  /** As above; with the client's request at hand, the source's directory also gets its new mtime (as in HDFS). */
  private void finish(Outgoing out, Request request) throws IOException {
    DirectoryTouches touches = new DirectoryTouches();
    ctx.ns().mutate(batch -> {
      Inode current = ctx.ns().lookup(out.parentId(), out.name());
      if (current != null && current.inodeId == out.inodeId()) {
        ctx.ns().deleteEntry(batch, out.parentId(), out.name());
        if (out.target() != ctx.ns().slot()) {
          // Its xattrs and ACL moved with it (rows keyed by inode id: when it landed here, they stay).
          ctx.ns().attrs().deleteFor(batch, current);
        }
        // Gone from here in this batch, under the write lock: no need to hold it frozen any longer.
        leaving.remove(new Moving(out.parentId(), NameHash.of(out.name())));
        touchSourceDirectory(batch, out, request, touches);
      } else {
        LOG.warn("Rename {}: the source entry {} changed before it could be removed", out.txid(), out.name());
      }
      intents.dropOutgoing(batch, out.txid());
      settled.settled(batch, out.txid(), true);
      return null;
    });
    touches.send(ctx);
    ctx.splits().unpinned(out.parentId()); // a split it held off goes ahead
  }

  private void touchSourceDirectory(org.rocksdb.WriteBatch batch, Outgoing out, Request request,
      DirectoryTouches touches) throws IOException {
    if (request == null) {
      return;
    }
    ResolvedPath src;
    try {
      src = ctx.resolver().resolve(request.getResolution(), request.getRename().getSrc());
    } catch (IndexFsException moved) {
      return; // the source's directory moved meanwhile: its mtime is its new place's business
    }
    if (src.parent() != null && src.parent().inodeId == out.parentId()) {
      Entries.touchDirectory(ctx, batch, src, src.depth() - 1, System.currentTimeMillis(), touches);
    }
  }

  private void abandon(Outgoing out) throws IOException {
    ctx.ns().mutate(batch -> {
      intents.dropOutgoing(batch, out.txid());
      settled.settled(batch, out.txid(), false);
      return null;
    });
    ctx.splits().unpinned(out.parentId()); // a split it held off goes ahead
  }

  /** Settles every record left by a crash (or an unreachable destination); renames in progress here are left alone. */
  public int settleAll() throws IOException {
    int settled = 0;
    for (Outgoing out : intents.outgoing()) {
      if (inFlight.contains(out.txid())) {
        continue;
      }
      if (askLanded(out)) {
        finish(out);
      } else {
        abandon(out);
      }
      settled++;
    }
    return settled;
  }

  private InterProcessMutex lock() throws IOException {
    InterProcessMutex lock = new InterProcessMutex(ctx.peers().curator(), ClusterPaths.renameLock(ctx.peers().cluster()));
    try {
      if (!lock.acquire(60, TimeUnit.SECONDS)) {
        throw new IOException("Timed out waiting for the cluster's rename lock");
      }
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("Cannot take the cluster's rename lock: " + e.getMessage(), e);
    }
    return lock;
  }

  private static void release(InterProcessMutex lock) {
    try {
      lock.release();
    } catch (Exception e) {
      LOG.warn("Releasing the rename lock failed (ZooKeeper frees it with the session)", e);
    }
  }

  private static Response.Builder result(boolean renamed) {
    return result(renamed, "");
  }

  private static Response.Builder result(boolean renamed, String to) {
    return Response.newBuilder().setBool(BoolResult.newBuilder().setValue(renamed).setRenamedTo(renamed ? to : ""));
  }
}
