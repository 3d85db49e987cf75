package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.Permission;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.BoolResult;
import org.indexfs.proto.Code;
import org.indexfs.proto.PartitionRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;

/**
 * A peer server's request about a directory this slot is home to (DESIGN §7): keep its partition
 * record in step with its entry (which lives on the caller's slot), seal it for rmdir, drop it
 * after a delete, and the subtree work that fans out across slots. Only servers (the superuser)
 * may ask.
 */
public final class PartitionOp implements Operation {
  private final OpContext ctx;

  public PartitionOp(OpContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    if (!ctx.access().isSuperuser(request.getCaller())) {
      throw new IndexFsException(Code.ACCESS_DENIED, "Partition requests are for servers only, not "
          + request.getCaller().getUser());
    }
    PartitionRequest req = request.getPartition();
    long dirId = req.getDirId();
    switch (req.getAction()) {
      case PUT -> {
        ctx.ns().mutate(batch -> {
          Inode old = ctx.ns().partition(dirId);
          ctx.ns().putPartition(batch, record(req, old != null ? old.zerothSlot : req.getZerothSlot()));
          return null;
        });
        forward(request, dirId);
      }
      case SEAL -> {
        ctx.ns().mutate(batch -> {
          Inode record = ctx.ns().partition(dirId);
          if (record == null) {
            return null;
          }
          Inode dir = record.copy();
          if (!SubtreeWalk.isEmpty(ctx, dirId)) {
            throw new IndexFsException(Code.DIRECTORY_NOT_EMPTY, req.getPath() + " is not empty");
          }
          dir.flags |= Inode.FLAG_SEALED;
          ctx.ns().putPartition(batch, dir);
          return null;
        });
        forward(request, dirId);
      }
      case DROP -> {
        // Down the split tree first: this slot's bitmap is what names the other partitions.
        forward(request, dirId);
        ctx.ns().mutate(batch -> {
          if (ctx.ns().partition(dirId) != null) {
            ctx.ns().deletePartition(batch, dirId);
            org.indexfs.server.quota.QuotaHome.drop(batch, ctx.ns().store(), dirId);
            ctx.ns().deleteBitmap(batch, dirId);
            ctx.reclaimer().reclaimSubtree(batch, dirId);
          }
          return null;
        });
        ctx.ns().invalidateBitmap(dirId);
        ctx.reclaimer().wake();
      }
      case CHECK_SUBTREE, SUMMARY -> {
        // One step of a walk some slot drives (Subtrees): never a call to another slot from here.
        org.indexfs.proto.SubtreeStep step = req.hasStep() ? req.getStep()
            : SubtreeWalk.step(dirId, req.getPath(), ctx.ns().slot(), false);
        org.indexfs.proto.SubtreePart part = ctx.ns().read(none -> Subtrees.stepHere(ctx, req.getAction(),
            req.getChecked(), step.toBuilder().setSlot(ctx.ns().slot()).build(), Subtrees.peerBudget(ctx), false));
        return Response.newBuilder().setSubtreePart(part);
      }
      case INGEST -> ingest(req);
      case TOUCH -> DirectoryMtime.touch(ctx, req);
      case HAS_PARTITION -> {
        boolean held = ctx.ns().read(none -> ctx.ns().partition(dirId) != null);
        return Response.newBuilder().setBool(BoolResult.newBuilder().setValue(held));
      }
      default -> throw IndexFsException.invalidArgument("Unknown partition action " + req.getAction());
    }
    return Response.newBuilder();
  }

  /** The partition record a request describes: the directory's access attributes and zeroth slot. */
  private Inode record(PartitionRequest req, int zeroth) throws IOException {
    Inode dir = new Inode();
    dir.type = Inode.TYPE_DIRECTORY;
    dir.inodeId = req.getDirId();
    dir.permission = req.getPermission() & Permission.MASK;
    dir.ownerId = ctx.ns().principals().idOf(req.getOwner());
    dir.groupId = ctx.ns().principals().idOf(req.getGroup());
    dir.mtime = dir.atime = req.getMtime();
    dir.zerothSlot = zeroth;
    dir.flags = req.getFlags() & Inode.RECORD_FLAGS & ~Inode.FLAG_SEALED;
    dir.acl = req.getAcl().isEmpty() ? null : req.getAcl().toByteArray();
    return dir;
  }

  /** Sends the same request to the partitions split off the one held here (the split tree). */
  private void forward(Request request, long dirId) throws IOException {
    Inode dir = ctx.ns().read(none -> ctx.ns().partition(dirId));
    if (dir == null) {
      return;
    }
    for (int slot : ctx.partitions().childSlots(dirId, dir.zerothSlot)) {
      ctx.peers().call(slot, Request.newBuilder().setPartition(request.getPartition()));
    }
  }

  /** Downloads a shipped split file and ingests it into {@code cf}; nothing when none was shipped. */
  private void ingestFile(String shipped, org.rocksdb.ColumnFamilyHandle cf,
      org.indexfs.server.split.PrincipalTranslation owners) throws IOException {
    if (shipped.isEmpty()) {
      return;
    }
    java.nio.file.Path local = java.nio.file.Files.createTempFile("indexfs-ingest-" + ctx.ns().slot() + "-", ".sst");
    java.nio.file.Files.delete(local);
    ctx.data().fetchOwned(shipped, ctx.data().user(), local);
    try {
      owners.rewrite(local);
      ctx.ns().store().ingest(cf, local);
    } finally {
      java.nio.file.Files.deleteIfExists(local);
    }
  }

  /**
   * The receiving side of a GIGA+ split: clear the range and its names' listing records (a retried
   * split may have left part of an earlier attempt), ingest the shipped SST files (entries and
   * their name index), then record the partition — the commit point. Idempotent: a partition already recorded answers at once.
   */
  private void ingest(PartitionRequest req) throws IOException {
    long dirId = req.getDirId();
    // Only files a split shipped to the servers' own .splits (issue 31): checked before anything changes.
    for (String file : new String[] {req.getSplitFile(), req.getNamesFile(), req.getAttrsFile()}) {
      org.indexfs.server.data.ShippedFiles.split(file);
    }
    if (ctx.ns().read(none -> ctx.ns().partition(dirId)) != null) {
      return;
    }
    byte[][] range = org.indexfs.server.split.SplitManager.movingRange(dirId, req.getIndex());
    ctx.ns().mutate(batch -> {
      try {
        batch.deleteRange(ctx.ns().store().entries(), range[0], range[1]);
      } catch (org.rocksdb.RocksDBException e) {
        throw new IOException(e);
      }
      ctx.ns().store().nameIndex().deleteMoving(batch, dirId, req.getIndex());
      return null;
    });
    if (!req.getAttrsFile().isEmpty()) {
      // The moving entries' xattrs and ACLs first: no entry is ever here without its rows.
      java.nio.file.Path local = java.nio.file.Files.createTempFile("indexfs-ingest-attrs-" + ctx.ns().slot() + "-", ".sst");
      java.nio.file.Files.delete(local);
      ctx.data().fetchOwned(req.getAttrsFile(), ctx.data().user(), local);
      try {
        ctx.ns().store().ingest(ctx.ns().store().attrs(), local);
      } finally {
        java.nio.file.Files.deleteIfExists(local);
      }
    }
    // Owner and group ids are the sender's: translated to this slot's where they differ.
    var owners = org.indexfs.server.split.PrincipalTranslation.of(req.getPrincipalsMap(), ctx.ns().principals());
    ingestFile(req.getSplitFile(), ctx.ns().store().entries(), owners);
    ingestFile(req.getNamesFile(), ctx.ns().store().names(), owners);
    org.indexfs.server.FaultPoints.at("ingest.received");
    ctx.ns().mutate(batch -> {
      ctx.ns().putPartition(batch, record(req, req.getZerothSlot()));
      ctx.ns().putBitmap(batch, dirId, org.indexfs.common.giga.PartitionBitmap.fromBytes(req.getBitmap().toByteArray()));
      for (com.google.protobuf.ByteString lease : req.getLeasesList()) {
        ctx.leases().grant(batch, org.indexfs.server.filelease.FileLease.decode(lease.toByteArray()));
      }
      return null;
    });
    ctx.ns().invalidateBitmap(dirId);
    ctx.ns().forgetDirectory(dirId);
    org.indexfs.server.FaultPoints.at("ingest.recorded");
  }
}
