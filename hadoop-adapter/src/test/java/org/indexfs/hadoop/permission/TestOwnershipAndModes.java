package org.indexfs.hadoop.permission;

import static org.indexfs.hadoop.permission.Users.read;
import static org.indexfs.hadoop.permission.Users.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
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
 * Who may change modes and owners (FSDirAttrOp), what a new entry's owner, group and mode are
 * (BSD group rule, client umask), and that a member of the supergroup passes every check.
 */
class TestOwnershipAndModes {
  private static Users users;
  private Path base;
  private Path alices;

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
    base = users.directory(new Path("/permissions/ownership/" + test.getTestMethod().orElseThrow().getName()),
        users.adminName, 0755);
    alices = users.directory(new Path(base, "alice"), "alice", 0755);
  }

  @AfterEach
  void removeBase() throws IOException {
    users.admin.delete(base, true);
  }

  private Path alicesFile() throws IOException {
    Path f = new Path(alices, "f");
    write(users.alice, f, "x");
    return f;
  }

  @Test
  void onlyTheOwnerMayChmodOrChownAFile() throws IOException {
    Path f = alicesFile();
    users.alice.setPermission(f, new FsPermission((short) 0644));

    assertThrows(AccessControlException.class, () -> users.bob.setPermission(f, new FsPermission((short) 0777)));
    assertThrows(AccessControlException.class, () -> users.bob.setOwner(f, "bob", null));
    assertThrows(AccessControlException.class, () -> users.bob.setOwner(f, null, "bobgroup"));
    users.assertMode(0644, f);
    assertEquals("alice", users.admin.getFileStatus(f).getOwner());

    users.alice.setPermission(f, new FsPermission((short) 0600));
    users.assertMode(0600, f);
  }

  @Test
  void nonSuperuserCannotGiveAFileAway() throws IOException {
    Path f = alicesFile();
    assertThrows(AccessControlException.class, () -> users.alice.setOwner(f, "bob", null));
    assertEquals("alice", users.admin.getFileStatus(f).getOwner());
    // Naming herself as owner is no change of owner, so it is allowed.
    users.alice.setOwner(f, "alice", null);
    assertEquals("alice", users.admin.getFileStatus(f).getOwner());
  }

  @Test
  void ownerMayChangeTheGroupOnlyToAGroupSheBelongsTo() throws IOException {
    Path f = alicesFile();
    String inherited = users.admin.getFileStatus(f).getGroup();
    assertNotEquals("alicegroup", inherited);

    users.alice.setOwner(f, null, "alicegroup");
    assertEquals("alicegroup", users.admin.getFileStatus(f).getGroup());

    assertThrows(AccessControlException.class, () -> users.alice.setOwner(f, null, "bobgroup"));
    assertEquals("alicegroup", users.admin.getFileStatus(f).getGroup());
  }

  @Test
  void clientUmaskAppliesToCreateAndMkdirs() throws IOException {
    Configuration strictConf = new Configuration(users.conf);
    strictConf.set(FsPermission.UMASK_LABEL, "077");
    FileSystem strict = users.as(users.aliceUgi, strictConf);

    write(strict, new Path(alices, "strict-file"), "x");
    strict.mkdirs(new Path(alices, "strict-dir"));
    strict.mkdirs(new Path(alices, "strict-explicit"), new FsPermission((short) 0777));
    strict.create(new Path(alices, "strict-explicit-file"), new FsPermission((short) 0666), false, 4096,
        strict.getDefaultReplication(alices), strict.getDefaultBlockSize(alices), null).close();
    users.assertMode(0600, new Path(alices, "strict-file"));
    users.assertMode(0700, new Path(alices, "strict-dir"));
    users.assertMode(0700, new Path(alices, "strict-explicit"));
    users.assertMode(0600, new Path(alices, "strict-explicit-file"));

    // The same user with the default umask (022) gets the HDFS defaults.
    write(users.alice, new Path(alices, "plain-file"), "x");
    users.alice.mkdirs(new Path(alices, "plain-dir"));
    users.assertMode(0644, new Path(alices, "plain-file"));
    users.assertMode(0755, new Path(alices, "plain-dir"));
  }

  /** FSDirMkdirOp.createAncestorDirectories: create's missing parents inherit, they do not use the file's mode. */
  @Test
  void createGivesMissingParentsTheNearestAncestorsModePlusUserWriteExecute() throws IOException {
    Path dir = users.directory(new Path(base, "inherit"), "alice", 0751);
    users.alice.create(new Path(dir, "x/y/f"), new FsPermission((short) 0600), false, 4096,
        users.alice.getDefaultReplication(dir), users.alice.getDefaultBlockSize(dir), null).close();
    users.assertMode(0751, new Path(dir, "x"));
    users.assertMode(0751, new Path(dir, "x/y"));
    users.assertMode(0600, new Path(dir, "x/y/f"));

    // u+wx is added so the creator can walk on, even when the ancestor denies it to its owner.
    Path readOnly = users.directory(new Path(base, "read-only"), "alice", 0451);
    write(users.admin, new Path(readOnly, "p/q/f"), "x");
    users.assertMode(0751, new Path(readOnly, "p"));
    users.assertMode(0751, new Path(readOnly, "p/q"));

    // Only the rwx bits are inherited: a parent made inside a sticky directory is not sticky.
    Path tmp = users.directory(new Path(base, "tmp"), "dora", 01777);
    write(users.alice, new Path(tmp, "mine/f"), "x");
    users.assertMode(0777, new Path(tmp, "mine"));
  }

  /** FSDirMkdirOp.mkdirs: missing parents get the requested mode plus u+wx. */
  @Test
  void mkdirsGivesMissingParentsTheRequestedModePlusUserWriteExecute() throws IOException {
    users.alice.mkdirs(new Path(alices, "m/n"), new FsPermission((short) 0511));
    users.assertMode(0711, new Path(alices, "m"));
    users.assertMode(0511, new Path(alices, "m/n"));
  }

  @Test
  void newEntriesAreOwnedByTheCreatorAndTakeTheParentsGroup() throws IOException {
    Path shared = users.directory(new Path(base, "shared"), users.adminName, 0777);
    users.admin.setOwner(shared, null, "projgroup");

    write(users.alice, new Path(shared, "f"), "x");
    users.alice.mkdirs(new Path(shared, "a/b"));
    write(users.bob, new Path(shared, "implicit/parent/g"), "y");

    for (String name : new String[] {"f", "a", "a/b"}) {
      FileStatus s = users.admin.getFileStatus(new Path(shared, name));
      assertEquals("alice", s.getOwner(), name);
      assertEquals("projgroup", s.getGroup(), name);
    }
    for (String name : new String[] {"implicit", "implicit/parent", "implicit/parent/g"}) {
      FileStatus s = users.admin.getFileStatus(new Path(shared, name));
      assertEquals("bob", s.getOwner(), name);
      assertEquals("projgroup", s.getGroup(), name);
    }
  }

  @Test
  void supergroupMemberPassesEveryCheck() throws IOException {
    Path locked = users.directory(new Path(base, "locked"), "alice", 0700);
    Path sub = new Path(locked, "sub");
    Path f = new Path(sub, "f");
    write(users.alice, f, "private");
    users.alice.setPermission(f, new FsPermission((short) 0));
    users.alice.setPermission(sub, new FsPermission((short) 0500));
    Path tmp = users.directory(new Path(base, "tmp"), "dora", 01777);
    write(users.alice, new Path(tmp, "a"), "alice's");

    FileSystem carol = users.carol;
    assertEquals("alice", carol.getFileStatus(f).getOwner());
    assertEquals(1, carol.listStatus(sub).length);
    assertEquals("private", read(carol, f));
    carol.setTimes(f, 5_000L, 6_000L);
    carol.setPermission(f, new FsPermission((short) 0640));
    carol.setOwner(f, "bob", "bobgroup");
    write(carol, new Path(sub, "new"), "carol's");
    assertTrue(carol.rename(new Path(sub, "new"), new Path(sub, "renamed")));
    assertTrue(carol.delete(new Path(tmp, "a"), false));
    assertTrue(carol.delete(locked, true));

    assertFalse(users.exists(locked));
    assertFalse(users.exists(new Path(tmp, "a")));
  }

  @Test
  void theSameCallsAreDeniedToAnOrdinaryUser() throws IOException {
    // The control for supergroupMemberPassesEveryCheck: what carol may do, bob may not.
    Path locked = users.directory(new Path(base, "locked"), "alice", 0711);
    Path sub = new Path(locked, "sub");
    Path f = new Path(sub, "f");
    write(users.alice, f, "private");
    users.alice.setPermission(f, new FsPermission((short) 0));
    users.alice.setPermission(sub, new FsPermission((short) 0500));

    FileSystem bob = users.bob;
    assertThrows(AccessControlException.class, () -> bob.listStatus(sub));
    assertThrows(AccessControlException.class, () -> bob.open(f));
    assertThrows(AccessControlException.class, () -> bob.setTimes(f, 5_000L, 6_000L));
    assertThrows(AccessControlException.class, () -> bob.setPermission(f, new FsPermission((short) 0640)));
    assertThrows(AccessControlException.class, () -> write(bob, new Path(sub, "new"), "bob's"));
    assertThrows(AccessControlException.class, () -> bob.delete(locked, true));
    assertTrue(users.exists(f));
  }
}
