package org.indexfs.server.snapshot;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.schema.Bytes;
import org.indexfs.common.schema.EntryKey;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.AttrRow;
import org.indexfs.proto.Code;
import org.indexfs.proto.FileType;
import org.indexfs.proto.OpenResult;
import org.indexfs.proto.Request;
import org.indexfs.proto.SnapshotPage;
import org.indexfs.proto.SnapshotRequest;
import org.indexfs.server.op.OpContext;
import org.indexfs.server.store.AttrTable;
import org.indexfs.server.store.PrefixIterator;
import org.rocksdb.RocksIterator;
import org.rocksdb.Snapshot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes a snapshot of a directory at its home slot: the barrier over every slot
 * ({@link SnapshotGate}) and the data tier's own snapshot inside it, then a copy of the subtree as
 * every slot held it at the barrier into this slot's {@link SnapshotTable}, then the record that
 * makes the snapshot visible. Anything failing before that record leaves nothing behind.
 */
final class SnapshotTaker {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotTaker.class);
  private static final int PAGE = 1000;

  private final OpContext ctx;
  private final SnapshotGate gate;
  private final SnapshotTable table;

  SnapshotTaker(OpContext ctx, SnapshotGate gate, SnapshotTable table) {
    this.ctx = ctx;
    this.gate = gate;
    this.table = table;
  }

  /** The data tier's snapshot holding the objects of IndexFS snapshot {@code id}. */
  static String dataSnapshotName(long id) {
    return "indexfs-" + Long.toHexString(id);
  }

  /**
   * Copies {@code dir}'s subtree as of one instant; returns the number of entries copied.
   * {@code entrySlot}: the slot holding the directory's own entry (and so its xattr and ACL rows).
   */
  long take(Inode dir, String path, int entrySlot, String name, OpenResult root, long createdMs) throws IOException {
    long id = ctx.ns().newInodeId();
    int slots = ctx.peers().slotCount();
    String dataSnapshot = dataSnapshotName(id);
    long started = System.nanoTime();
    long token = barrier(slots, dataSnapshot, SnapshotRequest.newBuilder().setAction(SnapshotRequest.Action.HOLD)
        .setPath(path).setDirId(dir.inodeId).setHomeSlot(ctx.ns().slot()).build());
    long barrierMs = (System.nanoTime() - started) / 1_000_000;
    long copied = 0;
    boolean done = false;
    try {
      copied = copy(token, id, dir, entrySlot, dataSnapshot);
      ctx.ns().mutateLocked(m -> {
        table.putSnapshot(m.batch(), dir.inodeId, new SnapshotTable.Snap(name, id, createdMs, root));
        return null;
      });
      done = true;
    } finally {
      for (int s = 0; s < slots; s++) {
        try {
          action(s, SnapshotRequest.Action.RELEASE, token);
        } catch (IOException e) {
          LOG.warn("Releasing snapshot barrier {} on slot {} failed (it drops it within an hour)", token, s, e);
        }
      }
      if (!done) {
        discard(id, dataSnapshot);
      }
    }
    LOG.info("Snapshot {} of directory {}: {} entries from {} slots; barrier {} ms, total {} ms", name,
        dir.inodeId, copied, slots, barrierMs, (System.nanoTime() - started) / 1_000_000);
    return copied;
  }

  /** Removes what a snapshot left: its entries here and its data-tier snapshot. */
  void discard(long id, String dataSnapshot) {
    try {
      ctx.ns().mutateLocked(m -> {
        table.dropEntries(m.batch(), id);
        return null;
      });
      if (ctx.data().configured()) {
        ctx.data().deleteSnapshot(dataSnapshot);
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("Could not remove what snapshot {} left", Long.toHexString(id), e);
    }
  }

  /**
   * Every slot's gate closed (each after its running mutations ended), the data tier's snapshot,
   * every slot's RocksDB snapshot, every gate reopened; returns the barrier's token. Two coordinators
   * racing: the later is refused by a slot the earlier holds, reopens what it closed, and tries again
   * with a new token (a slot never lets an ended barrier's token close its gate again).
   */
  private long barrier(int slots, String dataSnapshot, SnapshotRequest holdWithoutToken) throws IOException {
    for (int attempt = 0; ; attempt++) {
      long token = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
      SnapshotRequest hold = holdWithoutToken.toBuilder().setToken(token).build();
      int closed = 0;
      try {
        for (; closed < slots; closed++) {
          action(closed, hold);
        }
        if (ctx.data().configured()) {
          ctx.data().snapshot(dataSnapshot);
        }
        for (int s = 0; s < slots; s++) {
          action(s, SnapshotRequest.Action.TAKE, token);
        }
        return token;
      } catch (IndexFsException e) {
        for (int s = 0; s < slots; s++) {
          try {
            action(s, SnapshotRequest.Action.RELEASE, token);
          } catch (IOException ignored) {
            // that slot drops it by itself
          }
        }
        if (e.code() != Code.SNAPSHOT || attempt >= 4) {
          throw e;
        }
        sleep(50L << attempt);
      } finally {
        for (int s = 0; s < Math.min(closed + 1, slots); s++) {
          try {
            action(s, SnapshotRequest.Action.OPEN_GATE, token);
          } catch (IOException e) {
            LOG.warn("Reopening slot {}'s gate after snapshot barrier {} failed (it reopens by itself)", s, token, e);
          }
        }
      }
    }
  }

  private static void sleep(long ms) throws IOException {
    try {
      Thread.sleep(ms + ThreadLocalRandom.current().nextLong(ms));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("Interrupted while taking a snapshot");
    }
  }

  private record Task(long dirId, int slot) {}

  /** Walks the subtree slot by slot, page by page, as of the barrier, writing each page here. */
  private long copy(long token, long id, Inode dir, int entrySlot, String dataSnapshot) throws IOException {
    // The directory's own rows, from its entry's slot: its copy here (the partition record) does not
    // say whether it has xattrs, so they are always asked for (one call per snapshot).
    SnapshotPage own = ask(entrySlot, SnapshotRequest.newBuilder().setAction(SnapshotRequest.Action.ROWS)
        .setToken(token).setDirId(dir.inodeId).build());
    ctx.ns().mutateLocked(m -> {
      table.putAttrRows(m.batch(), id, own.getAttrRowsList());
      return null;
    });
    Deque<Task> queue = new ArrayDeque<>();
    Set<Task> seen = new HashSet<>();
    Task first = new Task(dir.inodeId, dir.zerothSlot);
    queue.add(first);
    seen.add(first);
    long copied = 0;
    while (!queue.isEmpty()) {
      Task t = queue.poll();
      com.google.protobuf.ByteString after = com.google.protobuf.ByteString.EMPTY;
      while (true) {
        SnapshotPage page = scan(t.slot(), token, t.dirId(), after);
        for (int s : page.getSplitSlotsList()) {
          Task more = new Task(t.dirId(), s);
          if (seen.add(more)) {
            queue.add(more);
          }
        }
        if (page.getEntriesCount() > 0) {
          ctx.ns().mutateLocked(m -> {
            for (OpenResult e : page.getEntriesList()) {
              table.putEntry(m.batch(), id, t.dirId(), readable(e, dataSnapshot));
            }
            table.putAttrRows(m.batch(), id, page.getAttrRowsList());
            return null;
          });
          copied += page.getEntriesCount();
          for (OpenResult e : page.getEntriesList()) {
            if (e.getStatus().getType() == FileType.DIRECTORY) {
              Task child = new Task(e.getStatus().getInodeId(), e.getStatus().getZerothSlot());
              if (seen.add(child)) {
                queue.add(child);
              }
            }
          }
        }
        if (!page.getHasMore()) {
          break;
        }
        after = page.getNextKey();
      }
    }
    return copied;
  }

  /** An object file's bytes are read in the snapshot from the data tier's snapshot of its object. */
  private static OpenResult readable(OpenResult e, String dataSnapshot) {
    String object = e.getStatus().getDataObject();
    if (object.isEmpty()) {
      return e;
    }
    return e.toBuilder().setStatus(e.getStatus().toBuilder().setDataObject(".snapshot/" + dataSnapshot + "/" + object)
        .setUnderConstruction(false)).build();
  }

  private SnapshotPage scan(int slot, long token, long dirId, com.google.protobuf.ByteString after) throws IOException {
    return ask(slot, SnapshotRequest.newBuilder().setAction(SnapshotRequest.Action.SCAN).setToken(token)
        .setDirId(dirId).setStartAfter(after).setLimit(PAGE).build());
  }

  private SnapshotPage ask(int slot, SnapshotRequest r) throws IOException {
    if (slot == ctx.ns().slot()) {
      return r.getAction() == SnapshotRequest.Action.ROWS ? rowsHere(ctx, gate, r) : scanHere(ctx, gate, r);
    }
    return ctx.peers().call(slot, Request.newBuilder().setSnapshot(r)).getSnapshotPage();
  }

  /** Directory {@code dir_id}'s own xattr and ACL rows on this slot (its entry's) as of the barrier. */
  static SnapshotPage rowsHere(OpContext ctx, SnapshotGate gate, SnapshotRequest r) throws IOException {
    SnapshotPage.Builder page = SnapshotPage.newBuilder();
    addRows(ctx, r.getDirId(), gate.snapshot(r.getToken()), page);
    return page.build();
  }

  private static void addRows(OpContext ctx, long inodeId, Snapshot at, SnapshotPage.Builder page) {
    for (AttrTable.Row row : ctx.ns().attrs().rows(inodeId, at)) {
      page.addAttrRows(AttrRow.newBuilder().setKey(com.google.protobuf.ByteString.copyFrom(row.key()))
          .setValue(com.google.protobuf.ByteString.copyFrom(row.value())));
    }
  }

  private void action(int slot, SnapshotRequest.Action action, long token) throws IOException {
    action(slot, SnapshotRequest.newBuilder().setAction(action).setToken(token).build());
  }

  private void action(int slot, SnapshotRequest r) throws IOException {
    if (slot == ctx.ns().slot()) {
      peerAction(gate, r);
    } else {
      ctx.peers().call(slot, Request.newBuilder().setSnapshot(r));
    }
  }

  /**
   * This slot's part of a barrier. Holding for a directory's snapshot also pins its path here
   * ({@link PinnedPaths}): no rename runs while the gate is closed, so none that starts after it
   * reopens can move the directory.
   */
  static void peerAction(SnapshotGate gate, SnapshotRequest r) throws IOException {
    SnapshotRequest.Action action = r.getAction();
    long token = r.getToken();
    if (action == SnapshotRequest.Action.HOLD && !r.getPath().isEmpty()) {
      peerAction(gate, SnapshotRequest.newBuilder(r).clearPath().build());
      gate.pinned().add(new PinnedPaths.Pinned(r.getPath(), r.getDirId(), r.getHomeSlot()));
      return;
    }
    switch (action) {
      case HOLD -> {
        try {
          gate.hold(token);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new java.io.InterruptedIOException("Interrupted while holding a snapshot barrier");
        }
      }
      case TAKE -> gate.take(token);
      case OPEN_GATE -> gate.open(token);
      case RELEASE -> gate.release(token);
      default -> throw new IllegalArgumentException(action.toString());
    }
  }

  /**
   * A page of directory {@code dir_id}'s entries held on this slot as of the barrier, in key order
   * from after {@code start_after} (a key), with the slots this one split the directory to.
   */
  static SnapshotPage scanHere(OpContext ctx, SnapshotGate gate, SnapshotRequest r) throws IOException {
    Snapshot at = gate.snapshot(r.getToken());
    byte[] prefix = EntryKey.prefix(r.getDirId());
    SnapshotPage.Builder page = SnapshotPage.newBuilder();
    byte[] last = null;
    try (PrefixIterator bounded = ctx.ns().store().prefixIterator(ctx.ns().store().entries(), prefix, at)) {
      RocksIterator it = bounded.it();
      byte[] from = r.getStartAfter().isEmpty() ? prefix : Bytes.concat(r.getStartAfter().toByteArray(), new byte[] {0});
      int limit = Math.max(1, r.getLimit());
      for (it.seek(from); it.isValid() && Bytes.startsWith(it.key(), prefix); it.next()) {
        if (page.getEntriesCount() == limit) {
          page.setHasMore(true);
          break;
        }
        last = it.key();
        Inode inode = Inode.decode(it.value());
        String name = EntryKey.decode(last).name();
        OpenResult.Builder e = OpenResult.newBuilder().setStatus(ctx.ns().toStatus(name, inode));
        if (inode.inlineData != null) {
          e.setInlineData(com.google.protobuf.ByteString.copyFrom(inode.inlineData));
        }
        page.addEntries(e);
        if (AttrTable.hasRows(inode)) {
          addRows(ctx, inode.inodeId, at, page); // only entries flagged as having some: no read for the others
        }
      }
    }
    if (last != null) {
      page.setNextKey(com.google.protobuf.ByteString.copyFrom(last));
    }
    if (r.getStartAfter().isEmpty()) {
      Inode record = ctx.ns().partition(r.getDirId());
      if (record != null) {
        page.addAllSplitSlots(ctx.partitions().childSlots(r.getDirId(), record.zerothSlot));
      }
    }
    return page.build();
  }
}
