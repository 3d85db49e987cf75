package org.indexfs.server.op;

import static org.indexfs.server.op.OneSlot.OWNER;
import static org.indexfs.server.op.OneSlot.OWNER_GROUP;
import static org.indexfs.server.op.OneSlot.after;
import static org.indexfs.server.op.OneSlot.caller;
import static org.indexfs.server.op.OneSlot.create;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.proto.FileStatus;
import org.indexfs.server.filelease.FileLease;
import org.indexfs.server.rpc.CallerAddresses;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CreateOp} alone, on one slot's real RocksDB. Refusals carry HDFS's codes and words
 * (FSDirWriteFileOp.startFile, FSDirectory.verifyParentDir, FSPermissionChecker), which the
 * adapter's {@code HdfsParityTest#messages} compares with a MiniDFSCluster's.
 */
class CreateOpTest {
  @TempDir
  Path dir;
  private OneSlot slot;
  private CreateOp op;
  private final Caller alice = caller(OWNER, OWNER_GROUP);

  @BeforeEach
  void open() throws Exception {
    slot = new OneSlot(dir);
    op = new CreateOp(slot.ctx, IndexFsConfig.MIN_BLOCK_SIZE.get(java.util.Map.of()));
    slot.mkdirs("/d", 0755);
  }

  @AfterEach
  void close() {
    slot.close();
  }

  @Test
  void aNewFileIsStoredOpenForItsWriterAndMovesItsParentsMtime() throws Exception {
    long before = slot.stored("/d").mtime;
    long now = after(before);
    FileStatus answer = op.apply(create(alice, create("/d/f").setPermission(0640))).getStatus();

    Inode file = slot.stored("/d/f");
    assertEquals(answer.getInodeId(), file.inodeId);
    assertEquals("f", answer.getName());
    assertTrue(file.type == Inode.TYPE_FILE && file.isUnderConstruction());
    assertEquals(0640, file.permission);
    assertEquals(OWNER, slot.ownerOf(file));
    assertEquals(OWNER_GROUP, slot.groupOf(file)); // the directory's group (BSD rule, as HDFS)
    assertEquals(3, file.replication);
    assertEquals(128L << 20, file.blockSize);
    assertEquals(0, file.length);
    assertTrue(slot.stored("/d").mtime >= now, "the parent's mtime moves with a new entry");
    // The writer's lease is in the same batch, with the spill object the reply names.
    FileLease lease = slot.ctx.leases().get(file.inodeId);
    assertEquals(alice.getClientId(), lease.holder());
    assertEquals(answer.getSpillObject(), lease.spillObject());
    assertFalse(answer.getSpillObject().isEmpty());
  }

  @Test
  void anExistingFileIsRefusedWithoutOverwriteAsHdfsDoes() throws Exception {
    Inode old = slot.closedFile("/d/f", "old".getBytes(StandardCharsets.UTF_8));
    IndexFsException e = assertThrows(IndexFsException.class,
        () -> CallerAddresses.run("127.0.0.1", op, create(alice, create("/d/f"))));
    assertEquals(Code.FILE_ALREADY_EXISTS, e.code());
    assertEquals("/d/f for client 127.0.0.1 already exists", e.getMessage());
    Inode kept = slot.stored("/d/f");
    assertEquals(old.inodeId, kept.inodeId);
    assertEquals(3, kept.length);
    assertFalse(kept.isUnderConstruction());
  }

  @Test
  void overwriteReplacesTheFileWithANewOneAndReleasesTheOldWritersLease() throws Exception {
    long first = op.apply(create(alice, create("/d/f"))).getStatus().getInodeId();
    long second = op.apply(create(alice, create("/d/f").setOverwrite(true))).getStatus().getInodeId();

    assertNotEquals(first, second);
    assertEquals(second, slot.stored("/d/f").inodeId);
    assertNull(slot.ctx.leases().get(first), "the replaced file's lease goes with it");
    assertEquals(alice.getClientId(), slot.ctx.leases().get(second).holder());
  }

  @Test
  void aMissingParentIsRefusedUnlessParentsAreAskedFor() throws Exception {
    IndexFsException e = assertThrows(IndexFsException.class,
        () -> op.apply(create(alice, create("/d/missing/f"))));
    assertEquals(Code.FILE_NOT_FOUND, e.code());
    assertEquals("Parent directory doesn't exist: /d/missing", e.getMessage());
    assertNull(slot.stored("/d/missing"));

    op.apply(create(alice, create("/d/a/b/f").setCreateParent(true)));
    // As HDFS's createAncestorDirectories: the parents copy the nearest existing directory's mode (u+wx).
    for (String parent : new String[] {"/d/a", "/d/a/b"}) {
      Inode made = slot.stored(parent);
      assertTrue(made.isDirectory(), parent);
      assertEquals(0755, made.permission, parent);
      assertEquals(OWNER, slot.ownerOf(made), parent);
    }
    assertEquals(Inode.TYPE_FILE, slot.stored("/d/a/b/f").type);
  }

  @Test
  void aFileOnTheWayIsNotADirectory() throws Exception {
    slot.closedFile("/d/f", new byte[0]);
    IndexFsException e = assertThrows(IndexFsException.class,
        () -> op.apply(create(alice, create("/d/f/child"))));
    assertEquals(Code.PARENT_NOT_DIRECTORY, e.code());
    assertEquals("/d/f (is not a directory)", e.getMessage());
    assertEquals(Inode.TYPE_FILE, slot.stored("/d/f").type);
  }

  @Test
  void someoneWithoutWriteOnTheParentIsRefusedAndNothingIsStored() throws Exception {
    long mtime = slot.stored("/d").mtime;
    IndexFsException e = assertThrows(IndexFsException.class,
        () -> op.apply(create(caller("bob", "staff"), create("/d/f"))));
    assertEquals(Code.ACCESS_DENIED, e.code());
    assertEquals("Permission denied: user=bob, access=WRITE, inode=\"/d\":alice:users:drwxr-xr-x", e.getMessage());
    assertNull(slot.stored("/d/f"));
    assertEquals(mtime, slot.stored("/d").mtime);
  }
}
