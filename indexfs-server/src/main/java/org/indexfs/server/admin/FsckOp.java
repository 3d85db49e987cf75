package org.indexfs.server.admin;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.util.TreeSet;
import org.indexfs.common.InodeIds;
import org.indexfs.common.schema.EntryKey;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.FileType;
import org.indexfs.proto.FsckEntry;
import org.indexfs.proto.FsckLease;
import org.indexfs.proto.FsckName;
import org.indexfs.proto.FsckPage;
import org.indexfs.proto.FsckPartition;
import org.indexfs.proto.FsckPending;
import org.indexfs.proto.FsckRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.filelease.FileLease;
import org.indexfs.server.ns.Namespace;
import org.indexfs.server.op.OpContext;
import org.indexfs.server.placement.HomeSync;
import org.indexfs.server.rename.RenameIntents;
import org.indexfs.server.store.InodeAllocator;
import org.indexfs.server.store.NameIndex;
import org.rocksdb.RocksIterator;

/**
 * {@code admin -fsck}, one slot's part: its records as stored, page by page, for the admin tool to
 * check across slots. It judges nothing itself — a slot cannot tell alone whether a directory
 * entry elsewhere names its partition — and reads the raw tables, not the caches, so it sees what
 * a restart would see. Values that cannot be decoded are passed on as such.
 */
final class FsckOp implements org.indexfs.server.op.Operation {
  private static final int PAGE_ENTRIES = 2_000;
  private static final int PAGE_BYTES = 1 << 20;

  private final AdminContext admin;

  FsckOp(AdminContext admin) {
    this.admin = admin;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    admin.requireSuperuser(request.getCaller(), "fsck");
    FsckRequest req = request.getFsck();
    FsckPage.Builder page = FsckPage.newBuilder().setSlot(admin.ops().ns().slot())
        .setSafeMode(admin.safeMode().isOn());
    switch (req.getPart()) {
      case META -> meta(page);
      case NAMES -> names(req, page);
      default -> entries(req, page);
    }
    return Response.newBuilder().setFsck(page);
  }

  private void meta(FsckPage.Builder page) throws IOException {
    OpContext ctx = admin.ops();
    Namespace ns = ctx.ns();
    PartitionRecords stored = PartitionRecords.read(ns, null);
    TreeSet<Long> dirs = new TreeSet<>(Long::compareUnsigned);
    dirs.addAll(stored.records().keySet());
    dirs.addAll(stored.bitmaps().keySet());
    for (long dirId : dirs) {
      FsckPartition.Builder p = FsckPartition.newBuilder().setDirId(dirId);
      byte[] record = stored.records().get(dirId);
      byte[] bitmap = stored.bitmaps().get(dirId);
      if (bitmap != null) {
        p.setBitmap(ByteString.copyFrom(bitmap));
      }
      if (record != null) {
        p.setHasRecord(true);
        try {
          Inode dir = Inode.decode(record);
          p.setZerothSlot(dir.zerothSlot).setPermission(dir.permission)
              .setOwner(ns.principals().nameOf(dir.ownerId)).setGroup(ns.principals().nameOf(dir.groupId))
              .setSealed((dir.flags & Inode.FLAG_SEALED) != 0);
        } catch (RuntimeException e) {
          p.setCorrupt(String.valueOf(e.getMessage()));
        }
      }
      page.addPartitions(p);
    }
    try {
      // The durable records, not the in-memory mirror: fsck checks what is on disk.
      for (FileLease l : ctx.leases().all(null)) {
        page.addLeases(FsckLease.newBuilder().setInodeId(l.inodeId()).setHolder(l.holder())
            .setParentId(l.parentId()).setName(l.name()).setSpillObject(l.spillObject()));
      }
    } catch (RuntimeException e) {
      page.addLeases(FsckLease.newBuilder().setCorrupt("the lease table cannot be read: " + e.getMessage()));
    }
    for (long dirId : ctx.reclaimer().pendingDirectories()) {
      page.addPending(pending(FsckPending.Kind.RECLAIM_DIRECTORY, dirId, "", 0));
    }
    for (String object : ctx.reclaimer().pendingObjects()) {
      page.addPending(pending(FsckPending.Kind.RECLAIM_OBJECT, 0, object, 0));
    }
    for (HomeSync.Intent i : ctx.homes().pending()) {
      page.addPending(pending(FsckPending.Kind.HOME_SYNC, i.dirId(), i.name(), i.parentId()));
    }
    for (RenameIntents.Outgoing o : new RenameIntents(ns).outgoing()) {
      page.addPending(pending(FsckPending.Kind.RENAME_OUT, o.inodeId(), o.name(), o.parentId()));
    }
    for (long dirId : ctx.splits().pendingSplits()) {
      page.addPending(pending(FsckPending.Kind.SPLIT, dirId, "", 0));
    }
    page.setIdHighWater(InodeAllocator.storedHighWater(ns.store()));
  }

  /** Positions {@code it} on the first key after the page cursor {@code after} (empty: the first key). */
  private static void seekAfter(RocksIterator it, byte[] after) {
    if (after.length == 0) {
      it.seekToFirst();
      return;
    }
    it.seek(after);
    if (it.isValid() && java.util.Arrays.equals(it.key(), after)) {
      it.next();
    }
  }

  private static FsckPending pending(FsckPending.Kind kind, long id, String name, long parentId) {
    return FsckPending.newBuilder().setKind(kind).setId(id).setName(name).setParentId(parentId).build();
  }

  private void entries(FsckRequest req, FsckPage.Builder page) {
    Namespace ns = admin.ops().ns();
    int limit = req.getLimit() == 0 ? PAGE_ENTRIES : (int) Math.min(Integer.toUnsignedLong(req.getLimit()), PAGE_ENTRIES);
    byte[] after = req.getCursor().toByteArray();
    int n = 0;
    int scanned = 0;
    long bytes = 0;
    byte[] last = null;
    try (RocksIterator it = ns.store().iterator(ns.store().entries(), null)) {
      seekAfter(it, after);
      for (; it.isValid() && n < limit && bytes < PAGE_BYTES && scanned < 20 * limit; it.next(), scanned++) {
        last = it.key();
        FsckEntry e = entry(ns, it.key(), it.value());
        if (req.getDirectoriesOnly() && e.hasStatus() && e.getStatus().getType() != FileType.DIRECTORY) {
          continue;
        }
        page.addEntries(e);
        n++;
        bytes += e.getSerializedSize();
      }
      if (it.isValid() && last != null) {
        page.setCursor(ByteString.copyFrom(last));
      }
    }
  }

  private static FsckEntry entry(Namespace ns, byte[] key, byte[] value) {
    FsckEntry.Builder e = FsckEntry.newBuilder().setKey(ByteString.copyFrom(key));
    if (key.length < EntryKey.HEADER_BYTES) {
      return e.setCorrupt("key of " + key.length + " bytes, shorter than parent id and name hash").build();
    }
    try {
      Inode inode = Inode.decode(value);
      EntryKey k = EntryKey.decode(key);
      e.setStatus(ns.toStatus(k.name(), inode));
      if (k.parentId() != InodeIds.NO_PARENT) {
        e.setIndex(indexAgreement(ns, k, inode));
      }
    } catch (RuntimeException | IOException bad) {
      e.setCorrupt(String.valueOf(bad.getMessage()));
    }
    return e.build();
  }

  /**
   * Whether the entry's listing-order record (what {@code listStatus} shows) says what the entry
   * says: empty if so, else how it differs. Both live on this slot, written by the same batches.
   */
  private static String indexAgreement(Namespace ns, EntryKey k, Inode inode) throws IOException {
    byte[] listed = ns.store().get(ns.store().names(), NameIndex.key(k.parentId(), k.name()));
    if (listed == null) {
      return "no listing record: listings leave it out";
    }
    if (java.util.Arrays.equals(listed, NameIndex.value(inode))) {
      return "";
    }
    try {
      Inode shown = Inode.decode(listed);
      return shown.inodeId != inode.inodeId
          ? "its listing record names inode " + InodeIds.format(shown.inodeId) + ": listings show another file"
          : "its listing record holds other attributes: listings show stale ones";
    } catch (RuntimeException bad) {
      return "its listing record cannot be read: " + bad.getMessage();
    }
  }

  /** A page of this slot's listing-order records that name no entry here (what listings would show as ghosts). */
  private void names(FsckRequest req, FsckPage.Builder page) throws IOException {
    Namespace ns = admin.ops().ns();
    int limit = req.getLimit() == 0 ? PAGE_ENTRIES : (int) Math.min(Integer.toUnsignedLong(req.getLimit()), PAGE_ENTRIES);
    byte[] after = req.getCursor().toByteArray();
    byte[] last = null;
    int scanned = 0;
    try (RocksIterator it = ns.store().iterator(ns.store().names(), null)) {
      seekAfter(it, after);
      for (; it.isValid() && scanned < 20 * limit && page.getStrayNamesCount() < limit; it.next(), scanned++) {
        last = it.key();
        if (last.length < EntryKey.PREFIX_BYTES) {
          page.addStrayNames(FsckName.newBuilder().setCorrupt("key of " + last.length + " bytes"));
          continue;
        }
        long parent = java.nio.ByteBuffer.wrap(last).getLong();
        String name = NameIndex.nameOf(last);
        if (ns.store().get(ns.store().entries(), EntryKey.of(parent, name).encode()) != null) {
          continue;
        }
        FsckName.Builder stray = FsckName.newBuilder().setParentId(parent).setName(name);
        try {
          stray.setInodeId(Inode.decode(it.value()).inodeId);
        } catch (RuntimeException bad) {
          stray.setCorrupt(String.valueOf(bad.getMessage()));
        }
        page.addStrayNames(stray);
      }
      if (it.isValid() && last != null) {
        page.setCursor(ByteString.copyFrom(last));
      }
    }
  }
}
