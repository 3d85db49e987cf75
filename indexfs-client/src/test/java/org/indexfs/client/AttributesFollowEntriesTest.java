package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.schema.Bytes;
import org.indexfs.proto.AclEditRequest;
import org.indexfs.proto.AclEntry;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.XAttr;
import org.indexfs.server.local.LocalCluster;
import org.indexfs.server.ns.Namespace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksIterator;

/**
 * Extended attributes and ACLs live beside the entries, keyed by inode id, on the slot holding the
 * entry: they move with a GIGA+ split's entries and with a cross-slot rename, and they are gone
 * once their entry is (delete, recursive delete and its background reclamation). Counted in each
 * slot's RocksDB, not just read back.
 */
class AttributesFollowEntriesTest {
  private static final int SLOTS = 2;
  private static final int THRESHOLD = 16;
  @TempDir
  static Path workDir;
  static LocalCluster cluster;
  static IndexFsClient admin;

  @BeforeAll
  static void start() throws IOException {
    cluster = LocalCluster.builder(workDir).clusterName("attrs").servers(SLOTS)
        .set(IndexFsConfig.SPLIT_THRESHOLD.name(), String.valueOf(THRESHOLD))
        .set(IndexFsConfig.WAL_SYNC.name(), "false").start();
    admin = Slots.client(cluster, TestData.USER, List.of());
  }

  @AfterAll
  static void stop() {
    admin.close();
    cluster.close();
  }

  static XAttr xattr(String name, String value) {
    return XAttr.newBuilder().setNamespace(XAttr.NameSpace.USER).setName(name)
        .setValue(ByteString.copyFrom(value, StandardCharsets.UTF_8)).build();
  }

  static List<AclEntry> aclFor(String user) {
    return List.of(
        AclEntry.newBuilder().setType(AclEntry.Type.USER).setPermission(6).build(),
        AclEntry.newBuilder().setType(AclEntry.Type.USER).setName(user).setPermission(4).build(),
        AclEntry.newBuilder().setType(AclEntry.Type.GROUP).setPermission(4).build(),
        AclEntry.newBuilder().setType(AclEntry.Type.OTHER).setPermission(0).build());
  }

  /** Rows of {@code inodeId} in the attrs table of {@code slot}. */
  static int rowsOn(int slot, long inodeId) {
    Namespace ns = cluster.server(slot).namespace();
    byte[] prefix = ByteBuffer.allocate(8).putLong(inodeId).array();
    int n = 0;
    try (RocksIterator it = ns.store().iterator(ns.store().attrs(), null)) {
      for (it.seek(prefix); it.isValid() && Bytes.startsWith(it.key(), prefix); it.next()) {
        n++;
      }
    }
    return n;
  }

  static int rowsAnywhere(long inodeId) {
    int n = 0;
    for (int s = 0; s < SLOTS; s++) {
      n += rowsOn(s, inodeId);
    }
    return n;
  }

  /** The slot whose entries table holds {@code name} in {@code dirId}. */
  static int slotOfEntry(long dirId, String name) throws IOException {
    for (int s = 0; s < SLOTS; s++) {
      Namespace ns = cluster.server(s).namespace();
      if (ns.store().get(ns.store().entries(), org.indexfs.common.schema.EntryKey.of(dirId, name).encode()) != null) {
        return s;
      }
    }
    return -1;
  }

  @Test
  void aSplitMovesTheAttributesOfTheEntriesItMoves() throws Exception {
    admin.mkdirs("/split", 0755);
    FileStatus dir = admin.getFileStatus("/split");
    long[] ids = new long[THRESHOLD];
    for (int i = 0; i < THRESHOLD; i++) {
      String path = "/split/f" + i;
      TestData.createClosed(admin, path);
      admin.setXAttr(path, xattr("n", "v" + i), true, false);
      admin.editAcl(path, AclEditRequest.Action.SET, aclFor("reader" + i));
      ids[i] = admin.getFileStatus(path).getInodeId();
    }
    assertEquals(0, Slots.entriesOn(cluster, 1 - dir.getZerothSlot(), dir.getInodeId()), "no split yet");
    // Past the threshold: the partition splits and about half of the entries move to the other slot.
    for (int i = THRESHOLD; i < THRESHOLD + 8; i++) {
      TestData.createClosed(admin, "/split/f" + i);
    }
    long deadline = System.currentTimeMillis() + 20_000;
    while (Slots.entriesOn(cluster, 1 - dir.getZerothSlot(), dir.getInodeId()) == 0
        || cluster.server(dir.getZerothSlot()).splits().inFlight() > 0) {
      assertTrue(System.currentTimeMillis() < deadline, "the directory splits");
      Thread.sleep(50);
    }
    int moved = 0;
    for (int i = 0; i < THRESHOLD; i++) {
      String path = "/split/f" + i;
      int slot = slotOfEntry(dir.getInodeId(), "f" + i);
      moved += slot != dir.getZerothSlot() ? 1 : 0;
      assertEquals(2, rowsOn(slot, ids[i]), "f" + i + ": its xattr and ACL are where its entry is");
      assertEquals(0, rowsOn(1 - slot, ids[i]), "f" + i + ": and nowhere else");
      assertEquals(List.of(xattr("n", "v" + i)), admin.getXAttrs(path, List.of()));
      assertEquals("reader" + i, admin.getAclStatus(path).getEntries(0).getName());
      assertTrue(admin.getFileStatus(path).getHasAcl());
    }
    assertTrue(moved > 0, "some entries with attributes moved");
  }

  @Test
  void aCrossSlotRenameMovesTheRowsAndDeletesReclaimThem() throws Exception {
    admin.mkdirs("/from", 0755);
    FileStatus from = admin.getFileStatus("/from");
    FileStatus to = Slots.dirNotOn(admin, "/", "to", from.getZerothSlot());
    String src = "/from/f";
    TestData.createClosed(admin, src);
    admin.setXAttr(src, xattr("a", "1"), true, false);
    admin.setXAttr(src, xattr("b", "2"), true, false);
    admin.editAcl(src, AclEditRequest.Action.SET, aclFor("reader"));
    long id = admin.getFileStatus(src).getInodeId();
    assertEquals(3, rowsOn(from.getZerothSlot(), id));
    String dst = "/" + to.getName() + "/f";
    assertTrue(admin.rename(src, dst));
    assertNotEquals(from.getZerothSlot(), to.getZerothSlot());
    assertEquals(0, rowsOn(from.getZerothSlot(), id), "nothing left behind");
    assertEquals(3, rowsOn(to.getZerothSlot(), id), "everything arrived");
    assertEquals(2, admin.getXAttrs(dst, List.of()).size());
    assertEquals("reader", admin.getAclStatus(dst).getEntries(0).getName());

    // A subtree with attributes at several depths, deleted recursively: reclaimed in the background.
    admin.mkdirs(dst + "-tree/a/b", 0755);
    long[] tree = new long[3];
    String[] paths = {dst + "-tree", dst + "-tree/a", dst + "-tree/a/b/file"};
    TestData.createClosed(admin, paths[2]);
    for (int i = 0; i < paths.length; i++) {
      admin.setXAttr(paths[i], xattr("x", "y"), true, false);
      admin.editAcl(paths[i], AclEditRequest.Action.SET, aclFor("reader"));
      tree[i] = admin.getFileStatus(paths[i]).getInodeId();
      assertEquals(2, rowsAnywhere(tree[i]));
    }
    assertTrue(admin.delete(dst + "-tree", true));
    assertTrue(admin.delete(dst, false));
    boolean idle = false;
    while (!idle) {
      // Until no slot has work left (reclaiming one slot's part may hand work to another).
      idle = true;
      for (int s = 0; s < SLOTS; s++) {
        idle &= cluster.server(s).reclaimer().runOnce();
      }
    }
    assertEquals(0, rowsAnywhere(id), "a deleted file's rows go with it");
    for (long t : tree) {
      assertEquals(0, rowsAnywhere(t), "reclamation removes the rows of every entry below");
    }
  }
}
