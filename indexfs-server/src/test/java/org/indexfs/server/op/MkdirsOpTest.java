package org.indexfs.server.op;

import static org.indexfs.server.op.OneSlot.OWNER;
import static org.indexfs.server.op.OneSlot.OWNER_GROUP;
import static org.indexfs.server.op.OneSlot.after;
import static org.indexfs.server.op.OneSlot.bool;
import static org.indexfs.server.op.OneSlot.caller;
import static org.indexfs.server.op.OneSlot.mkdirs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.server.ns.Namespace;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link MkdirsOp} alone, on one slot's real RocksDB. Modes follow HDFS's FSDirMkdirOp (the
 * client applied the umask; implicit parents gain u+wx); refusals carry its codes and words, which
 * the adapter's {@code HdfsParityTest#messages} compares with a MiniDFSCluster's.
 */
class MkdirsOpTest {
  @TempDir
  Path dir;
  private OneSlot slot;
  private MkdirsOp op;
  private final Caller alice = caller(OWNER, OWNER_GROUP);

  @BeforeEach
  void open() throws Exception {
    slot = new OneSlot(dir);
    op = new MkdirsOp(slot.ctx);
    slot.mkdirs("/d", 0755);
  }

  @AfterEach
  void close() {
    slot.close();
  }

  @Test
  void theAuditPermIsNotedOnTheCallTheOperationIsHanded() throws Exception {
    org.indexfs.server.call.Call call = org.indexfs.server.call.Call.detached(mkdirs(caller(OWNER, OWNER_GROUP), "/audited", 0750));
    op.apply(call);
    // Noted on this call, though no call is bound to the thread: the auditor reads it from here.
    assertNull(org.indexfs.server.call.Call.current());
    assertEquals(org.indexfs.server.audit.AuditLine.perm(OWNER, OWNER_GROUP, true, 0750), call.auditPerm());
  }

  @Test
  void aDeepPathMakesEveryLevelTheLastWithTheModeAskedTheOthersWithUserWriteAndExecute() throws Exception {
    long now = after(slot.stored("/d").mtime);
    assertTrue(bool(op.apply(mkdirs(alice, "/d/a/b/c", 0444))));

    for (String path : new String[] {"/d/a", "/d/a/b", "/d/a/b/c"}) {
      Inode made = slot.stored(path);
      assertTrue(made.isDirectory(), path);
      assertEquals(path.equals("/d/a/b/c") ? 0444 : 0744, made.permission, path);
      assertEquals(OWNER, slot.ownerOf(made), path);
      assertEquals(OWNER_GROUP, slot.groupOf(made), path);
      assertEquals(0, made.zerothSlot, path); // one slot: every directory is homed here
      // Each is homed here with its partition record, in the same batch as its entry.
      assertTrue(slot.store.get(slot.store.meta(), Namespace.partitionKeyOf(made.inodeId)) != null, path);
      assertTrue(made.mtime >= now, path);
    }
    assertTrue(slot.stored("/d").mtime >= now, "the parent's mtime moves with its new child");
  }

  @Test
  void anExistingDirectoryIsTrueAndLeftAsItIs() throws Exception {
    Inode before = slot.stored("/d");
    after(before.mtime);
    assertTrue(bool(op.apply(mkdirs(alice, "/d", 0700))));
    Inode after = slot.stored("/d");
    assertEquals(before.permission, after.permission);
    assertEquals(before.mtime, after.mtime);
  }

  @Test
  void aFileInTheWayIsRefusedAsHdfsDoes() throws Exception {
    slot.closedFile("/d/f", new byte[0]);
    IndexFsException over = assertThrows(IndexFsException.class, () -> op.apply(mkdirs(alice, "/d/f", 0755)));
    assertEquals(Code.FILE_ALREADY_EXISTS, over.code());
    assertEquals("Path is not a directory: /d/f", over.getMessage());

    IndexFsException under = assertThrows(IndexFsException.class,
        () -> op.apply(mkdirs(alice, "/d/f/sub/dir", 0755)));
    assertEquals(Code.PARENT_NOT_DIRECTORY, under.code());
    assertEquals("/d/f (is not a directory)", under.getMessage());
    assertEquals(Inode.TYPE_FILE, slot.stored("/d/f").type);
  }

  @Test
  void someoneWithoutWriteOnTheDeepestExistingDirectoryIsRefusedAndNothingIsStored() throws Exception {
    IndexFsException e = assertThrows(IndexFsException.class,
        () -> op.apply(mkdirs(caller("bob", "staff"), "/d/a/b", 0755)));
    assertEquals(Code.ACCESS_DENIED, e.code());
    assertEquals("Permission denied: user=bob, access=WRITE, inode=\"/d\":alice:users:drwxr-xr-x", e.getMessage());
    assertNull(slot.stored("/d/a"));
  }
}
