package org.indexfs.server.op;

import static org.indexfs.server.op.OneSlot.OWNER;
import static org.indexfs.server.op.OneSlot.OWNER_GROUP;
import static org.indexfs.server.op.OneSlot.caller;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Caller;
import org.indexfs.proto.RenameRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Resolution;
import org.indexfs.server.local.EmbeddedZooKeeper;
import org.indexfs.server.rename.RenameIntents;
import org.indexfs.server.security.AncestorSeal;
import org.indexfs.server.security.ResolutionKeys;
import org.indexfs.server.security.ServerZooKeeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RenameOp} alone, on one slot's real RocksDB: a rename whose destination directory is
 * another slot's is an answer of the operation ({@link RenameResult.CrossesSlots}), reached with
 * nothing written, not an exception. The slot stands as slot 0 of two; {@code /b} is made a
 * directory homed on slot 1, as a two-slot cluster's placement may home it. Walks that stop at
 * another slot hand out sealed ancestors, so the resolver seals with keys kept in a real ZooKeeper.
 */
class RenameOpTest {
  @TempDir
  Path dir;
  private EmbeddedZooKeeper zk;
  private ResolutionKeys keys;
  private OneSlot slot;
  private RenameOp op;
  private final Caller alice = caller(OWNER, OWNER_GROUP);

  @BeforeEach
  void open() throws Exception {
    zk = new EmbeddedZooKeeper(dir.resolve("zk").toFile(), 0);
    keys = new ResolutionKeys(ServerZooKeeper.digest("indexfs:rename-op-test"), zk.connectString(), 10_000,
        "rename-op-test", IndexFsConfig.SECURITY_KEY_ROTATION_MS.get(java.util.Map.of()));
    slot = new OneSlot(dir);
    slot.ctx.resolver().useSeal(new AncestorSeal(keys, 60_000));
    op = new RenameOp(slot.ctx, new CrossSlotRename(slot.ctx, new RenameIntents(slot.ns)));
    slot.mkdirs("/a", 0755);
    slot.mkdirs("/b", 0755);
    slot.closedFile("/a/f", "f".getBytes(StandardCharsets.UTF_8));
  }

  @AfterEach
  void close() {
    slot.close();
    keys.close();
    zk.close();
  }

  /** From here on the slot is slot 0 of two, and {@code /b}'s entries live on slot 1. */
  private void homeBOnSlotOne() throws Exception {
    slot.ctx.partitions().useSlotCount(() -> 2);
    Inode root = slot.ns.root();
    Inode b = slot.ns.lookup(root.inodeId, "b").copy();
    b.zerothSlot = 1;
    slot.ns.mutate(batch -> {
      slot.ns.putTimes(batch, root.inodeId, "b", b);
      return null;
    });
  }

  private Request rename(String src, String dst, RenameRequest.Mode mode) {
    return Request.newBuilder().setCaller(alice)
        .setRename(RenameRequest.newBuilder().setSrc(src).setDst(dst).setMode(mode)).build();
  }

  @Test
  void aRenameWithinTheSlotIsDoneHere() throws Exception {
    long id = slot.stored("/a/f").inodeId;
    RenameResult result = op.renameHere(rename("/a/f", "/b", RenameRequest.Mode.LEGACY));

    assertEquals(new RenameResult.Local(true, "/b/f"), result); // "into" the existing directory
    assertNull(slot.stored("/a/f"));
    assertEquals(id, slot.stored("/b/f").inodeId);
  }

  @Test
  void aDestinationParentOnAnotherSlotIsAnAnswerWithNothingWritten() throws Exception {
    homeBOnSlotOne();
    long id = slot.stored("/a/f").inodeId;
    for (RenameRequest.Mode mode : RenameRequest.Mode.values()) {
      if (mode == RenameRequest.Mode.UNRECOGNIZED) {
        continue;
      }
      RenameResult result = op.renameHere(rename("/a/f", "/b/g", mode));

      RenameResult.CrossesSlots elsewhere = assertInstanceOf(RenameResult.CrossesSlots.class, result, mode.name());
      assertWalkedToB(elsewhere.destination());
      assertEquals(id, slot.stored("/a/f").inodeId, "the source stays until the two-phase rename moves it");
    }
  }

  @Test
  void aLegacyRenameIntoADirectoryHomedElsewhereCrossesSlots() throws Exception {
    homeBOnSlotOne();
    // "/b" exists here (its entry is in the root, on this slot); what goes into it is slot 1's.
    RenameResult result = op.renameHere(rename("/a/f", "/b", RenameRequest.Mode.LEGACY));

    assertWalkedToB(assertInstanceOf(RenameResult.CrossesSlots.class, result).destination());
    assertNotNull(slot.stored("/a/f"));
  }

  @Test
  void aDirectoryMovingBetweenQuotasIsCountedBeforeItsOneBatch() throws Exception {
    java.util.Map<Request.OpCase, Operation> ops = new java.util.EnumMap<>(Request.OpCase.class);
    ops.put(Request.OpCase.RENAME, op);
    org.indexfs.server.quota.QuotaRetry.install(ops, slot.ctx.quotas());
    Operation rename = ops.get(Request.OpCase.RENAME);
    slot.mkdirs("/q", 0755);
    slot.mkdirs("/outside/two/three", 0755);
    slot.mkdirs("/outside/big/one", 0755);
    new SetQuotaOp(slot.ctx, new org.indexfs.server.quota.QuotaHome(slot.ns, slot.peers, slot.ctx.quotas()))
        .apply(Request.newBuilder().setCaller(caller(OneSlot.SUPERUSER))
            .setSetQuota(org.indexfs.proto.SetQuotaRequest.newBuilder().setPath("/q").setNsQuota(3)
                .setDsQuota(SetQuotaOp.DONT_SET)).build());

    // /q and the two entries moving in: exactly its quota.
    assertEquals(true, rename.apply(rename("/outside/two", "/q/two", RenameRequest.Mode.EXACT)).getBool().getValue());
    assertNotNull(slot.stored("/q/two/three"));
    // Two more entries counted under /big: over it, refused with HDFS's code; nothing moved.
    org.indexfs.common.IndexFsException refused = org.junit.jupiter.api.Assertions.assertThrows(
        org.indexfs.common.IndexFsException.class,
        () -> rename.apply(rename("/outside/big", "/q/big", RenameRequest.Mode.EXACT)));
    assertEquals(org.indexfs.proto.Code.NS_QUOTA_EXCEEDED, refused.code());
    assertNotNull(slot.stored("/outside/big/one"));
    assertNull(slot.stored("/q/big"));
    // Moving out frees what was counted: /big fits after /two leaves.
    assertEquals(true, rename.apply(rename("/q/two", "/outside/two", RenameRequest.Mode.EXACT)).getBool().getValue());
    assertEquals(true, rename.apply(rename("/outside/big", "/q/big", RenameRequest.Mode.EXACT)).getBool().getValue());
  }

  /** The walk handed on: the root and {@code /b}, sealed, {@code /b} naming its home slot. */
  private void assertWalkedToB(Resolution walked) throws Exception {
    assertEquals(2, walked.getAncestorsCount());
    assertEquals(slot.stored("/b").inodeId, walked.getAncestors(1).getInodeId());
    assertEquals(1, walked.getAncestors(1).getZerothSlot());
    assertEquals(32, walked.getAncestors(1).getMac().size());
  }
}
