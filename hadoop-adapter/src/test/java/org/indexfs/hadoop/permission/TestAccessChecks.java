package org.indexfs.hadoop.permission;

import static org.indexfs.hadoop.permission.Users.read;
import static org.indexfs.hadoop.permission.Users.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.AccessControlException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Two (or more) users against one namespace: which operation needs which permission where, as
 * HDFS's FSPermissionChecker decides it. Every denial is paired with the same call succeeding for
 * someone who holds the permission, and with a check that the denied call changed nothing.
 */
class TestAccessChecks {
  private static Users users;
  private Path base;

  @BeforeAll
  static void connect() throws IOException {
    users = new Users();
  }

  @AfterAll
  static void disconnect() {
    users.close();
  }

  @BeforeEach
  void makeBase(TestInfo test) throws IOException {
    base = users.directory(new Path("/permissions/access/" + test.getTestMethod().orElseThrow().getName()),
        users.adminName, 0755);
  }

  @AfterEach
  void removeBase() throws IOException {
    users.admin.delete(base, true);
  }

  private Path alicesDirectory() throws IOException {
    return users.directory(new Path(base, "alice"), "alice", 0755);
  }

  private Path bobsDirectory() throws IOException {
    return users.directory(new Path(base, "bob"), "bob", 0755);
  }

  @Test
  void createNeedsWriteOnTheParentDirectory() throws IOException {
    Path dir = alicesDirectory();
    assertThrows(AccessControlException.class, () -> write(users.bob, new Path(dir, "b"), "bob was here"));
    assertFalse(users.exists(new Path(dir, "b")));
    write(users.alice, new Path(dir, "a"), "mine");
    assertTrue(users.exists(new Path(dir, "a")));
  }

  @Test
  void mkdirsNeedsWriteOnTheDeepestExistingAncestor() throws IOException {
    Path dir = alicesDirectory();
    assertThrows(AccessControlException.class, () -> users.bob.mkdirs(new Path(dir, "sub")));
    assertThrows(AccessControlException.class, () -> users.bob.mkdirs(new Path(dir, "x/y/z")));
    assertFalse(users.exists(new Path(dir, "sub")));
    assertFalse(users.exists(new Path(dir, "x")));
    assertTrue(users.alice.mkdirs(new Path(dir, "x/y/z")));
  }

  @Test
  void deleteNeedsWriteOnTheParentEvenForTheFilesOwner() throws IOException {
    Path dir = alicesDirectory();
    Path bobsFile = new Path(dir, "bobs");
    write(users.admin, bobsFile, "given to bob");
    users.admin.setOwner(bobsFile, "bob", null);
    assertThrows(AccessControlException.class, () -> users.bob.delete(bobsFile, false));
    assertTrue(users.exists(bobsFile));
    assertTrue(users.alice.delete(bobsFile, false));
    assertFalse(users.exists(bobsFile));
  }

  @Test
  void renameNeedsWriteOnBothParents() throws IOException {
    Path alices = alicesDirectory();
    Path bobs = bobsDirectory();
    write(users.alice, new Path(alices, "f"), "a");
    write(users.bob, new Path(bobs, "g"), "b");

    // Out of a directory bob cannot write, and into one.
    assertThrows(AccessControlException.class, () -> users.bob.rename(new Path(alices, "f"), new Path(bobs, "f")));
    assertThrows(AccessControlException.class, () -> users.bob.rename(new Path(bobs, "g"), new Path(alices, "g")));
    assertTrue(users.exists(new Path(alices, "f")));
    assertFalse(users.exists(new Path(bobs, "f")));
    assertTrue(users.exists(new Path(bobs, "g")));
    assertFalse(users.exists(new Path(alices, "g")));

    assertTrue(users.alice.rename(new Path(alices, "f"), new Path(alices, "f2")));
    assertTrue(users.bob.rename(new Path(bobs, "g"), new Path(bobs, "g2")));
  }

  @Test
  void renamePermissionsAreCheckedBeforeAnyRenameRule() throws Exception {
    // HDFS checks WRITE on both sides first (FSDirRenameOp.renameTo), so a refused caller is told
    // "denied", never "false" or "not found", whether or not the source exists.
    Path alices = alicesDirectory();
    Path bobs = bobsDirectory();
    assertThrows(AccessControlException.class,
        () -> users.bob.rename(new Path(alices, "missing"), new Path(bobs, "x")));
    assertThrows(AccessControlException.class,
        () -> users.bob.rename(new Path(bobs, "missing"), new Path(alices, "x")));
    org.apache.hadoop.fs.FileContext fc = users.bobUgi.doAs(
        (java.security.PrivilegedExceptionAction<org.apache.hadoop.fs.FileContext>)
            () -> org.apache.hadoop.fs.FileContext.getFileContext(users.uri, users.conf));
    assertThrows(AccessControlException.class,
        () -> fc.rename(new Path(alices, "missing"), new Path(bobs, "x")));
    // With permission, the same missing source is the ordinary answer.
    assertFalse(users.bob.rename(new Path(bobs, "missing"), new Path(bobs, "x")));
  }

  @Test
  void stickyBitProtectsOtherUsersFiles() throws IOException {
    Path tmp = users.directory(new Path(base, "tmp"), "dora", 01777);
    assertTrue(users.mode(tmp).getStickyBit());
    Path alicesFile = new Path(tmp, "a");
    write(users.alice, alicesFile, "alice's");

    write(users.bob, new Path(tmp, "b"), "bob's own file is fine");
    assertThrows(AccessControlException.class, () -> users.bob.delete(alicesFile, false));
    assertThrows(AccessControlException.class, () -> users.bob.rename(alicesFile, new Path(tmp, "stolen")));
    assertEquals("alice's", read(users.admin, alicesFile));
    assertFalse(users.exists(new Path(tmp, "stolen")));
    assertTrue(users.bob.delete(new Path(tmp, "b"), false));
  }

  @Test
  void stickyBitLetsTheEntrysOwnerAndTheDirectorysOwnerRemoveIt() throws IOException {
    Path tmp = users.directory(new Path(base, "tmp"), "dora", 01777);
    write(users.alice, new Path(tmp, "a1"), "1");
    write(users.alice, new Path(tmp, "a2"), "2");

    assertTrue(users.alice.rename(new Path(tmp, "a1"), new Path(tmp, "a1-renamed")));
    assertTrue(users.alice.delete(new Path(tmp, "a1-renamed"), false));
    assertTrue(users.dora.rename(new Path(tmp, "a2"), new Path(tmp, "a2-renamed")));
    assertTrue(users.dora.delete(new Path(tmp, "a2-renamed"), false));
  }

  @Test
  void withoutTheStickyBitAnyWriterOfTheDirectoryMayRemoveOthersFiles() throws IOException {
    Path open = users.directory(new Path(base, "open"), "dora", 0777);
    write(users.alice, new Path(open, "a1"), "1");
    write(users.alice, new Path(open, "a2"), "2");
    assertTrue(users.bob.rename(new Path(open, "a1"), new Path(open, "taken")));
    assertTrue(users.bob.delete(new Path(open, "a2"), false));
  }

  @Test
  void getFileStatusNeedsExecuteOnEveryAncestor() throws IOException {
    Path secret = users.directory(new Path(base, "secret"), "alice", 0700);
    users.alice.mkdirs(new Path(secret, "sub"));
    Path file = new Path(secret, "sub/f");
    write(users.alice, file, "x");

    assertThrows(AccessControlException.class, () -> users.bob.getFileStatus(file));
    // A missing entry below an untraversable directory is denied, not reported missing.
    assertThrows(AccessControlException.class, () -> users.bob.getFileStatus(new Path(secret, "sub/missing")));
    // The directory itself needs only its own ancestors.
    assertEquals("alice", users.bob.getFileStatus(secret).getOwner());

    users.alice.setPermission(secret, new FsPermission((short) 0711));
    assertEquals("alice", users.bob.getFileStatus(file).getOwner());
  }

  @Test
  void listStatusNeedsReadOnTheDirectory() throws IOException {
    Path dir = users.directory(new Path(base, "dir"), "alice", 0711);
    write(users.alice, new Path(dir, "f"), "x");

    assertThrows(AccessControlException.class, () -> users.bob.listStatus(dir));
    assertTrue(users.bob.getFileStatus(new Path(dir, "f")).isFile(), "EXECUTE alone still reaches a known name");

    users.alice.setPermission(dir, new FsPermission((short) 0755));
    FileStatus[] listed = users.bob.listStatus(dir);
    assertEquals(1, listed.length);
    assertEquals("f", listed[0].getPath().getName());
  }

  @Test
  void openNeedsReadOnTheFile() throws IOException {
    Path dir = alicesDirectory();
    Path file = new Path(dir, "diary");
    write(users.alice, file, "dear diary");
    users.alice.setPermission(file, new FsPermission((short) 0600));

    assertThrows(AccessControlException.class, () -> users.bob.open(file));
    assertEquals("dear diary", read(users.alice, file));

    users.alice.setPermission(file, new FsPermission((short) 0604));
    assertEquals("dear diary", read(users.bob, file));
  }

  @Test
  void recursiveDeleteOfATreeWithAnUnwritableSubdirectoryIsDeniedAndDeletesNothing() throws IOException {
    Path tree = new Path(bobsDirectory(), "tree");
    write(users.bob, new Path(tree, "a/f1"), "1");
    write(users.bob, new Path(tree, "locked/f2"), "2");
    users.bob.setPermission(new Path(tree, "locked"), new FsPermission((short) 0555));

    assertThrows(AccessControlException.class, () -> users.bob.delete(tree, true));
    assertTrue(users.exists(new Path(tree, "a/f1")));
    assertTrue(users.exists(new Path(tree, "locked/f2")));

    users.bob.setPermission(new Path(tree, "locked"), new FsPermission((short) 0755));
    assertTrue(users.bob.delete(tree, true));
    assertFalse(users.exists(tree));
  }

  /** FSDirDeleteOp checks subAccess=ALL with ignoreEmptyDir=true: an empty directory has nothing to protect. */
  @Test
  void recursiveDeleteIgnoresEmptyUnwritableSubdirectories() throws IOException {
    Path tree = new Path(bobsDirectory(), "tree");
    write(users.bob, new Path(tree, "f"), "1");
    users.bob.mkdirs(new Path(tree, "empty"));
    users.bob.setPermission(new Path(tree, "empty"), new FsPermission((short) 0555));

    assertTrue(users.bob.delete(tree, true));
    assertFalse(users.exists(tree));
  }

  @Test
  void setTimesNeedsWriteOnTheEntry() throws IOException {
    Path file = new Path(alicesDirectory(), "f");
    write(users.alice, file, "x");
    users.alice.setPermission(file, new FsPermission((short) 0644));
    long before = users.admin.getFileStatus(file).getModificationTime();

    assertThrows(AccessControlException.class, () -> users.bob.setTimes(file, 1_000_000L, 2_000_000L));
    assertEquals(before, users.admin.getFileStatus(file).getModificationTime());

    users.alice.setPermission(file, new FsPermission((short) 0646));
    users.bob.setTimes(file, 1_000_000L, 2_000_000L);
    assertEquals(1_000_000L, users.admin.getFileStatus(file).getModificationTime());
    assertEquals(2_000_000L, users.admin.getFileStatus(file).getAccessTime());
  }
}
