package org.indexfs.server.op;

import static org.indexfs.server.op.OneSlot.OWNER;
import static org.indexfs.server.op.OneSlot.OWNER_GROUP;
import static org.indexfs.server.op.OneSlot.after;
import static org.indexfs.server.op.OneSlot.bool;
import static org.indexfs.server.op.OneSlot.caller;
import static org.indexfs.server.op.OneSlot.delete;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.schema.EntryKey;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.server.ns.Namespace;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link DeleteOp} alone, on one slot's real RocksDB: the top entry goes in one batch, a subtree
 * is left to the reclaimer by a durable record (DESIGN §7). Refusals carry HDFS's codes and words
 * (FSDirDeleteOp), which the adapter's {@code HdfsParityTest#messages} compares with a MiniDFSCluster's.
 */
class DeleteOpTest {
  @TempDir
  Path dir;
  private OneSlot slot;
  private DeleteOp op;
  private final Caller alice = caller(OWNER, OWNER_GROUP);

  @BeforeEach
  void open() throws Exception {
    slot = new OneSlot(dir);
    op = new DeleteOp(slot.ctx);
    slot.mkdirs("/d", 0755);
  }

  @AfterEach
  void close() {
    slot.close();
  }

  @Test
  void aFileIsUnlinkedAndItsParentsMtimeMoves() throws Exception {
    slot.closedFile("/d/f", new byte[] {1, 2, 3});
    long now = after(slot.stored("/d").mtime);
    assertTrue(bool(op.apply(delete(alice, "/d/f", false))));
    assertNull(slot.stored("/d/f"));
    assertTrue(slot.stored("/d").mtime >= now, "the parent's mtime moves when an entry goes");
    assertFalse(bool(op.apply(delete(alice, "/d/f", false))), "nothing there: false, as HDFS");
  }

  @Test
  void anEmptyDirectoryGoesWithItsPartitionRecord() throws Exception {
    slot.mkdirs("/d/e", 0755);
    long id = slot.stored("/d/e").inodeId;
    assertTrue(bool(op.apply(delete(alice, "/d/e", false))));
    assertNull(slot.stored("/d/e"));
    assertNull(slot.store.get(slot.store.meta(), Namespace.partitionKeyOf(id)));
    assertTrue(slot.reclaimer.pendingDirectories().isEmpty(), "an empty directory leaves nothing to reclaim");
  }

  @Test
  void aNonEmptyDirectoryNeedsRecursionAsHdfsSays() throws Exception {
    slot.closedFile("/d/x/f", new byte[0]);
    IndexFsException e = assertThrows(IndexFsException.class, () -> op.apply(delete(alice, "/d/x", false)));
    assertEquals(Code.DIRECTORY_NOT_EMPTY, e.code());
    assertEquals("`/d/x is non empty': Directory is not empty", e.getMessage());
    assertNotNull(slot.stored("/d/x/f"));
  }

  @Test
  void aRecursiveDeleteUnlinksTheTopAndRecordsTheSubtreeForTheReclaimer() throws Exception {
    slot.closedFile("/d/x/y/f", new byte[] {7});
    long x = slot.stored("/d/x").inodeId;
    long y = slot.stored("/d/x/y").inodeId;
    long now = after(slot.stored("/d").mtime);

    assertTrue(bool(op.apply(delete(alice, "/d/x", true))));
    assertNull(slot.stored("/d/x"), "the subtree is invisible at once");
    assertTrue(slot.stored("/d").mtime >= now);
    assertEquals(List.of(x), slot.reclaimer.pendingDirectories(), "the durable record of the detached subtree");
    assertNotNull(slot.store.get(slot.store.entries(), EntryKey.of(y, "f").encode()), "reclaimed later, not now");

    while (!slot.reclaimer.runOnce()) {
      // the reclaimer's background passes, run here by hand until one finds nothing left
    }
    assertTrue(slot.reclaimer.pendingDirectories().isEmpty());
    assertNull(slot.store.get(slot.store.entries(), EntryKey.of(y, "f").encode()));
    assertNull(slot.store.get(slot.store.entries(), EntryKey.of(x, "y").encode()));
  }

  @Test
  void theRootIsNeverDeleted() throws Exception {
    slot.closedFile("/d/f", new byte[0]);
    // FSDirDeleteOp.deleteAllowed: false, and everything stays.
    assertFalse(bool(op.apply(delete(caller("hdfs"), "/", true))));
    assertNotNull(slot.stored("/d/f"));
    assertTrue(slot.reclaimer.pendingDirectories().isEmpty());
  }

  @Test
  void someoneWithoutWriteOnTheParentIsRefusedAndTheFileStays() throws Exception {
    slot.closedFile("/d/f", new byte[0]);
    IndexFsException e = assertThrows(IndexFsException.class, () -> op.apply(delete(caller("bob", "staff"), "/d/f", false)));
    assertEquals(Code.ACCESS_DENIED, e.code());
    assertEquals("Permission denied: user=bob, access=WRITE, inode=\"/d\":alice:users:drwxr-xr-x", e.getMessage());
    assertNotNull(slot.stored("/d/f"));
  }
}
