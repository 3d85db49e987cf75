package org.indexfs.server.op;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.indexfs.common.ClusterPaths;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.Permission;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.BoolResult;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.proto.RenameInRequest;
import org.indexfs.proto.RenameRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Resolution;
import org.indexfs.proto.Response;
import org.indexfs.server.ns.ResolvedPath;
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

  Response.Builder run(Request request, Resolution dstKnown) throws IOException {
    RenameRequest req = request.getRename();
    Caller caller = request.getCaller();
    boolean exact = req.getMode() == RenameRequest.Mode.EXACT;
    String txid = txids.apply(request);
    int firstTarget = dstKnown.getAncestorsCount() == 0 ? 0
        : dstKnown.getAncestors(dstKnown.getAncestorsCount() - 1).getZerothSlot();
    inFlight.add(txid);
    try {
      Outgoing[] out = {null};
      Inode moving = ctx.ns().mutate(batch -> {
        ResolvedPath src = ctx.resolver().resolve(request.getResolution(), req.getSrc());
        ctx.access().checkTraverse(caller, src);
        if (!src.isRoot() && src.existingCount() >= src.depth() && src.parent() != null) {
          ctx.access().checkParent(caller, src, Permission.WRITE_EXECUTE);
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
        if (src.last().isUnderConstruction()) {
          throw new IndexFsException(Code.UNSUPPORTED, "rename of " + req.getSrc()
              + " to another slot while it is open for writing is not supported yet");
        }
        out[0] = new Outgoing(txid, src.parent().inodeId, src.lastName(), src.last().inodeId, firstTarget);
        intents.recordOutgoing(batch, out[0]);
        return src.last();
      });
      if (moving == null) {
        return result(false);
      }
      FaultPoints.at("out.recorded");
      InterProcessMutex lock = moving.isDirectory() ? lock() : null;
      try {
        return result(land(request, dstKnown, out[0], moving));
      } finally {
        if (lock != null) {
          release(lock);
        }
      }
    } finally {
      inFlight.remove(txid);
    }
  }

  /** Phase 2 (routed like a client, one hop per slot the destination path crosses) and phase 3. */
  private boolean land(Request request, Resolution dstKnown, Outgoing out, Inode moving) throws IOException {
    RenameRequest req = request.getRename();
    RenameInRequest.Builder in = RenameInRequest.newBuilder().setTxid(out.txid()).setSrc(req.getSrc())
        .setDst(req.getDst()).setMode(req.getMode()).setOverwrite(req.getOverwrite())
        .setEntry(ByteString.copyFrom(moving.encode())).setOwner(ctx.ns().principals().nameOf(moving.ownerId))
        .setGroup(ctx.ns().principals().nameOf(moving.groupId)).setChecked(request.getCaller());
    Resolution known = dstKnown;
    int target = out.target();
    for (int hop = 0; hop < MAX_HOPS; hop++) {
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
            finish(out);
            return true;
          }
          abandon(out);
          return false;
        }
        case RESOLVE_ELSEWHERE -> {
          known = answer.getResolved();
          target = known.getAncestors(known.getAncestorsCount() - 1).getZerothSlot();
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
    ctx.ns().mutate(batch -> {
      Inode current = ctx.ns().lookup(out.parentId(), out.name());
      if (current != null && current.inodeId == out.inodeId()) {
        ctx.ns().deleteEntry(batch, out.parentId(), out.name());
      } else {
        LOG.warn("Rename {}: the source entry {} changed before it could be removed", out.txid(), out.name());
      }
      intents.dropOutgoing(batch, out.txid());
      settled.settled(batch, out.txid(), true);
      return null;
    });
  }

  private void abandon(Outgoing out) throws IOException {
    ctx.ns().mutate(batch -> {
      intents.dropOutgoing(batch, out.txid());
      settled.settled(batch, out.txid(), false);
      return null;
    });
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
    return Response.newBuilder().setBool(BoolResult.newBuilder().setValue(renamed));
  }
}
