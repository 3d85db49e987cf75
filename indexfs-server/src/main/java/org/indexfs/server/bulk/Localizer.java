package org.indexfs.server.bulk;

import java.io.IOException;
import java.util.List;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.InodeIds;
import org.indexfs.common.ObjectNames;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.proto.IdBlock;
import org.indexfs.proto.LocalizeGrant;
import org.indexfs.server.Periodic;
import org.indexfs.server.op.OpContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Grants, renews and ends localization leases (IndexFS §II-D). A grant is durable before it is
 * answered, with the inode ids it reserves. Renewal is denied once another client asked for the
 * subtree, so the holder publishes within one lease period. A holder that stops renewing loses its
 * part when its lease runs out: nothing it did not publish ever reached the server, and the data
 * objects it may have written under its reserved names become orphans for the scrubber. When the
 * last holder is gone the subtree is an ordinary one again, and its directories may split.
 */
public final class Localizer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Localizer.class);

  private final OpContext ctx;
  private final Localizations table;
  private final BulkIngest ingest;
  private final int maxIdBlock;
  private final Periodic monitor;
  private final Mirrors mirrors;

  public Localizer(OpContext ctx, Localizations table, BulkIngest ingest, int maxIdBlock) {
    this.ctx = ctx;
    this.table = table;
    this.ingest = ingest;
    this.maxIdBlock = maxIdBlock;
    this.mirrors = new Mirrors(ctx);
    table.onMirrorContended((home, dirId) -> mirrors.contended(dirId, home));
    ingest.useMirrors(mirrors);
    this.monitor = new Periodic("indexfs-localize-" + ctx.ns().slot(), Math.max(50, Math.min(table.leaseMs() / 4, 1_000)), false,
        this::expire);
  }

  public void start() {
    monitor.start();
  }

  Localizations table() {
    return table;
  }

  BulkIngest ingest() {
    return ingest;
  }

  Mirrors mirrors() {
    return mirrors;
  }

  /** GRANT (take or join) or RENEW the lease on {@code dir} for {@code caller}. */
  LocalizeGrant grant(Caller caller, Inode dir, boolean renew, boolean shared, int idsWanted) throws IOException {
    String client = caller.getClientId();
    boolean[] denied = {false};
    long[] block = {0, 0};
    // Drawn once per holder, as a server-side create draws its object's name (ObjectNames.fresh).
    String prefix = ObjectNames.fresh(ctx.ns().slot()) + "-";
    if (!renew) {
      Localization current = table.get(dir.inodeId);
      Localization.Holder holder = current == null ? null : current.holder(client);
      if (holder == null || holder.released() || table.remainingMs(dir.inodeId, client) == 0) {
        table.refuseWhileOthersWait(dir.inodeId, client);
      }
      // The holder's expiry exists before its record does: the monitor, which ends holders without
      // one, must not end it while the grant is still being made (its mirrors sent).
      table.extend(dir.inodeId, client);
    }
    Localization after = ctx.ns().mutate(batch -> {
      Localization l = table.get(dir.inodeId);
      Localization.Holder h = l == null ? null : l.holder(client);
      boolean live = h != null && !h.released() && table.remainingMs(dir.inodeId, client) > 0;
      if (renew) {
        if (!live) {
          throw new IndexFsException(Code.LEASE_EXPIRED, "Client " + client + " holds no localization lease on directory "
              + InodeIds.format(dir.inodeId) + " (it expired or was released)");
        }
        denied[0] = table.isContended(dir.inodeId);
      } else if (!live) {
        if (l != null && l.hasLiveHolders() && !(l.shared() && shared)) {
          throw new IndexFsException(Code.SUBTREE_LOCALIZED, "Directory " + InodeIds.format(dir.inodeId)
              + " is localized by another client" + (l.shared() ? " (SHARED_LOCALIZE: join it with shared=true)" : ""));
        }
        if (l == null || !l.hasLiveHolders()) {
          l = new Localization(dir.inodeId, shared, l == null ? List.of() : l.holders());
        }
        h = h == null ? new Localization.Holder(client, caller.getUser(), caller.getGroupsList(), List.of(), false, prefix)
            : new Localization.Holder(client, caller.getUser(), caller.getGroupsList(), h.blocks(), false,
                h.objectPrefix().isEmpty() ? prefix : h.objectPrefix());
      }
      int wanted = (int) Math.min(Integer.toUnsignedLong(idsWanted), maxIdBlock); // uint32 on the wire
      if (wanted > 0 && !denied[0]) {
        block[0] = ctx.ns().reserveInodeIds(wanted);
        block[1] = wanted;
        h = h.withBlock(block[0], wanted);
      }
      Localization changed = l.with(h);
      table.put(batch, changed);
      return changed;
    });
    if ((!renew || block[1] > 0) && mirrors.split(dir.inodeId)) {
      // Every partition's slot knows the holders and their blocks before the grant is answered (a
      // failure here is retried by the client's GRANT, which sends the record again).
      mirrors.push(after);
    }
    if (!renew || block[1] > 0) {
      // So does every slot homing a directory of the subtree made before, or holding a partition of
      // it (of the root, walked there, or of one below that split before; none: no call at all).
      SubtreeDirs here = ingest.subtree(dir.inodeId);
      if (here.reachesOtherSlots()) {
        try {
          // Directories homed here below one homed elsewhere (or in a partition of the root on
          // another slot) are this subtree's from now on: held from splitting at once, and
          // durably (a restart here walks only its own entries; BulkIngest.walkedAgain adds these).
          List<Long> adopted = here.adoptHomed(mirrors.pushSubtree(after, here), ctx.ns().slot());
          if (!adopted.isEmpty()) {
            ctx.ns().mutate(batch -> {
              table.putHeld(batch, dir.inodeId, adopted);
              return null;
            });
          }
        } catch (IndexFsException e) {
          if (e.code() == Code.UNSUPPORTED) {
            release(dir.inodeId, client, "was refused (too many directories on other slots) and gave up");
          }
          throw e;
        }
      }
    }
    if (!denied[0]) {
      table.extend(dir.inodeId, client);
    }
    LocalizeGrant.Builder g = LocalizeGrant.newBuilder().setDirId(dir.inodeId)
        .setLeaseMs(table.remainingMs(dir.inodeId, client)).setRenewalDenied(denied[0] || table.isContended(dir.inodeId))
        .setOwnerId(ctx.ns().principals().idOf(caller.getUser())).setGroupId(dir.groupId)
        .setInlineMaxBytes(ctx.inlineMaxBytes()).setShared(after.shared())
        .setObjectPrefix(after.holder(client).objectPrefix());
    if (block[1] > 0) {
      g.addBlocks(IdBlock.newBuilder().setFirst(block[0]).setCount(block[1]));
    }
    if (!renew) {
      LOG.info("Client {} ({}) localized directory {} ({}), {} ids reserved", client, caller.getUser(),
          InodeIds.format(dir.inodeId), after.shared() ? "shared" : "private", block[1]);
    }
    return g.build();
  }

  /** The holder gives its part up (after its last publish, or because its lease ran out). */
  void release(long dirId, String client, String why) throws IOException {
    boolean[] ended = {false};
    ctx.ns().mutate(batch -> {
      Localization l = table.get(dirId);
      Localization.Holder h = l == null ? null : l.holder(client);
      if (h == null || h.released()) {
        return null;
      }
      Localization changed = l.with(h.releasedNow());
      if (changed.hasLiveHolders() || mirrors.split(dirId) || mirroredSubtree(dirId)) {
        // A mirrored record stays (no live holder) until the slots holding a mirror heard.
        table.put(batch, changed);
      } else {
        table.remove(batch, dirId);
      }
      ended[0] = !changed.hasLiveHolders();
      return null;
    });
    table.forgetExpiry(dirId, client);
    LOG.info("Client {} {} its localization of directory {}{}", client, why, InodeIds.format(dirId),
        ended[0] ? "; the subtree is an ordinary one again" : "");
    if (ended[0]) {
      end(dirId);
    }
  }

  /** The last holder is gone: a split directory's partitions hear it first, then the record goes. */
  private void end(long dirId) throws IOException {
    boolean split = mirrors.split(dirId);
    boolean subtree = mirroredSubtree(dirId);
    if (split || subtree) {
      try {
        if (split) {
          mirrors.end(dirId);
        }
        if (subtree) {
          mirrors.endSubtree(dirId, ingest.subtree(dirId));
        }
      } catch (IOException e) {
        LOG.warn("The localization of directory {} ended, but not every slot holding a partition of it or a "
            + "directory of its subtree heard yet (retried): {}", InodeIds.format(dirId), e.toString());
        return;
      }
      ctx.ns().mutate(batch -> {
        Localization l = table.get(dirId);
        if (l != null && !l.hasLiveHolders()) {
          table.remove(batch, dirId);
        }
        return null;
      });
    }
    for (long dir : ingest.ended(dirId)) {
      ctx.splits().consider(dir);
    }
  }

  /** True when directories of the subtree are homed or split on other slots: those hold a mirror of its record. */
  private boolean mirroredSubtree(long dirId) {
    return ingest.subtree(dirId).reachesOtherSlots();
  }

  private void expire() throws IOException {
    for (Object[] e : table.expired()) {
      release((Long) e[0], (String) e[1], "let the lease run out on; what it did not publish is dropped from");
    }
    for (long dirId : table.endedSplit()) {
      end(dirId);
    }
    ingest.settleAll();
  }

  @Override
  public void close() {
    monitor.close();
    mirrors.close();
  }
}
