package org.indexfs.server.placement;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.schema.Bytes;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Code;
import org.indexfs.proto.PartitionRequest;
import org.indexfs.proto.Request;
import org.indexfs.server.ns.Namespace;
import org.indexfs.server.peer.Peers;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;

/**
 * Keeps a directory's partition on its home slot in step with the directory's entry here, when
 * the two live on different slots (DESIGN §7: mkdir, chmod/chown, rmdir, recursive delete).
 *
 * <p>The change to the entry is written together with a durable intent {@code home/<dirId>}.
 * Driving the intent reads the entry as it is now and makes the home agree: the entry exists, so
 * the home's partition record gets its attributes (created if new, a seal lifted); the entry is
 * gone, so the home drops the partition and reclaims below it. Both answers are idempotent, so an
 * intent is simply driven again after a crash or an unreachable home: no orphan partition, no
 * dangling entry.
 */
public final class HomeSync {
  private static final byte[] PREFIX = "home/".getBytes(StandardCharsets.UTF_8);

  private final Namespace ns;
  private final Peers peers;

  public HomeSync(Namespace ns, Peers peers) {
    this.ns = ns;
    this.peers = peers;
  }

  /** Records, in the caller's batch, that directory {@code dirId} (entry {@code name} in {@code parentId}) must be synced to {@code home}. */
  public void record(WriteBatch batch, long dirId, int home, long parentId, String name) throws IOException {
    byte[] n = name.getBytes(StandardCharsets.UTF_8);
    byte[] value = ByteBuffer.allocate(12 + n.length).putInt(home).putLong(parentId).put(n).array();
    try {
      batch.put(ns.store().meta(), key(dirId), value);
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  /**
   * The directory's entry moved to {@code name} in {@code parentId} on this slot (a rename): a
   * pending intent follows it in the same batch, so driving it never mistakes the move for a
   * delete (which would drop the partition of a directory that still exists).
   */
  public void move(WriteBatch batch, long dirId, long parentId, String name) throws IOException {
    byte[] value = ns.store().get(ns.store().meta(), key(dirId));
    if (value != null) {
      record(batch, dirId, ByteBuffer.wrap(value).getInt(), parentId, name);
    }
  }

  /** True while a sync of directory {@code dirId} to its home is recorded and not yet done. */
  public boolean pending(long dirId) throws IOException {
    return ns.store().get(ns.store().meta(), key(dirId)) != null;
  }

  /** Makes the home agree with the entry now; drops the intent once it does. */
  public void drive(long dirId) throws IOException {
    // One drive of a directory at a time: the later one sees what the earlier one settled.
    synchronized (stripes[(int) Math.floorMod(dirId, (long) stripes.length)]) {
      driveNow(dirId);
    }
  }

  private final Object[] stripes = newStripes(64);

  private static Object[] newStripes(int n) {
    Object[] out = new Object[n];
    for (int i = 0; i < n; i++) {
      out[i] = new Object();
    }
    return out;
  }

  private void driveNow(long dirId) throws IOException {
    // An entry deleted (or made) while its intent was on its way leaves an intent of the same
    // value: the drive that sent the older state must not take it as done; it drives again.
    for (int round = 0; round < 8 && !driveOnce(dirId); round++) {
      // (the next round reads the entry as it is now)
    }
  }

  /** One drive: true when the intent is settled (gone, or done and dropped here). */
  private boolean driveOnce(long dirId) throws IOException {
    // The intent and the entry it names, read together: a rename rewrites both in one batch.
    Object[] seen = ns.read(none -> {
      byte[] v = ns.store().get(ns.store().meta(), key(dirId));
      if (v == null) {
        return null;
      }
      ByteBuffer b = ByteBuffer.wrap(v);
      b.getInt();
      long parent = b.getLong();
      return new Object[] {v, ns.lookup(parent, new String(v, 12, v.length - 12, StandardCharsets.UTF_8))};
    });
    if (seen == null) {
      return true;
    }
    byte[] value = (byte[]) seen[0];
    int home = ByteBuffer.wrap(value).getInt();
    String name = new String(value, 12, value.length - 12, StandardCharsets.UTF_8);
    Inode entry = (Inode) seen[1];
    PartitionRequest.Builder req = PartitionRequest.newBuilder().setDirId(dirId).setPath(name);
    boolean present = entry != null && entry.inodeId == dirId;
    if (present) {
      req.setAction(PartitionRequest.Action.PUT).setPermission(entry.permission)
          .setOwner(ns.principals().nameOf(entry.ownerId)).setGroup(ns.principals().nameOf(entry.groupId))
          .setMtime(entry.mtime).setZerothSlot(entry.zerothSlot)
          .setFlags(entry.flags & Inode.RECORD_FLAGS & ~Inode.FLAG_SEALED)
          .setAcl(entry.acl == null ? com.google.protobuf.ByteString.EMPTY : com.google.protobuf.ByteString.copyFrom(entry.acl));
    } else {
      req.setAction(PartitionRequest.Action.DROP);
    }
    peers.call(home, Request.newBuilder().setPartition(req));
    org.indexfs.server.FaultPoints.at("home.sync.sent");
    long parentId = ByteBuffer.wrap(value, 4, 8).getLong();
    return ns.mutate(batch -> {
      byte[] now = ns.store().get(ns.store().meta(), key(dirId));
      if (now == null) {
        return true;
      }
      // Unless the entry changed again meanwhile: a newer intent (another value), or the same
      // value recorded again by a delete or mkdir after this drive read the entry.
      Inode e = ns.lookup(parentId, name);
      if (!Arrays.equals(now, value) || (e != null && e.inodeId == dirId) != present
          || present && !sameAccess(entry, e)) {
        return false;
      }
      try {
        batch.delete(ns.store().meta(), key(dirId));
      } catch (RocksDBException ex) {
        throw new IOException(ex);
      }
      return true;
    });
  }

  /** What a PUT carries to the home (mtime aside: it moves with every change inside the directory). */
  private static boolean sameAccess(Inode sent, Inode now) {
    return sent.permission == now.permission && sent.ownerId == now.ownerId && sent.groupId == now.groupId
        && (sent.flags & Inode.RECORD_FLAGS) == (now.flags & Inode.RECORD_FLAGS) && Arrays.equals(sent.acl, now.acl);
  }

  /** Drives every recorded intent (after a restart, or retrying ones whose home was unreachable). */
  public int driveAll() throws IOException {
    List<Long> pending = new ArrayList<>();
    try (RocksIterator it = ns.store().iterator(ns.store().meta(), null)) {
      for (it.seek(PREFIX); it.isValid() && Bytes.startsWith(it.key(), PREFIX); it.next()) {
        pending.add(ByteBuffer.wrap(it.key(), PREFIX.length, 8).getLong());
      }
    }
    for (long dirId : pending) {
      drive(dirId);
    }
    return pending.size();
  }

  /** A recorded, not yet driven sync: directory {@code dirId}, entry {@code name} in {@code parentId}, home {@code home}. */
  public record Intent(long dirId, int home, long parentId, String name) {}

  /** Every intent not driven yet (fsck: a home that disagrees with its entry is still being synced). */
  public List<Intent> pending() {
    List<Intent> out = new ArrayList<>();
    try (RocksIterator it = ns.store().iterator(ns.store().meta(), null)) {
      for (it.seek(PREFIX); it.isValid() && Bytes.startsWith(it.key(), PREFIX); it.next()) {
        ByteBuffer b = ByteBuffer.wrap(it.value());
        int home = b.getInt();
        long parentId = b.getLong();
        String name = new String(it.value(), 12, it.value().length - 12, StandardCharsets.UTF_8);
        out.add(new Intent(ByteBuffer.wrap(it.key(), PREFIX.length, 8).getLong(), home, parentId, name));
      }
    }
    return out;
  }

  /** Asks {@code home} to seal directory {@code dirId} for removal: refused when it holds entries. */
  public void seal(int home, long dirId, String path) throws IOException {
    try {
      peers.call(home, Request.newBuilder().setPartition(PartitionRequest.newBuilder()
          .setAction(PartitionRequest.Action.SEAL).setDirId(dirId).setPath(path)));
    } catch (IndexFsException e) {
      if (e.code() == Code.DIRECTORY_NOT_EMPTY) {
        throw new IndexFsException(Code.DIRECTORY_NOT_EMPTY, "`" + path + " is non empty': Directory is not empty");
      }
      throw e;
    }
  }

  private static byte[] key(long dirId) {
    return ByteBuffer.allocate(PREFIX.length + 8).put(PREFIX).putLong(dirId).array();
  }
}
