package org.indexfs.hadoop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.security.PrivilegedExceptionAction;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Data objects follow their files' ACLs (DESIGN §14): clients read and write objects on the data
 * tier as themselves, and an object carries its file's owner, group and mode — so a user an ACL
 * entry admits would be let in by IndexFS and then refused by HDFS. The object takes the ACL when
 * it changes (before the entry, as with chmod) and when a file with an inherited ACL gets its object.
 */
class ObjectAclTest {
  private static final int LARGE = 200_000;
  private static final UserGroupInformation ALICE =
      UserGroupInformation.createUserForTesting("alice", new String[] {"alicegroup"});
  private static final UserGroupInformation BOB = UserGroupInformation.createUserForTesting("bob", new String[] {"bobgroup"});

  private static FileSystem admin;
  private static FileSystem alice;
  private static FileSystem bob;
  private static FileSystem hdfs;

  @BeforeAll
  static void setUp() throws Exception {
    IndexFsTestCluster.get();
    Configuration conf = IndexFsTestCluster.conf();
    admin = FileSystem.newInstance(IndexFsTestCluster.uri(), conf);
    alice = ALICE.doAs((PrivilegedExceptionAction<FileSystem>) () -> FileSystem.newInstance(IndexFsTestCluster.uri(), conf));
    bob = BOB.doAs((PrivilegedExceptionAction<FileSystem>) () -> FileSystem.newInstance(IndexFsTestCluster.uri(), conf));
    hdfs = IndexFsTestCluster.hdfs().fileSystem();
    admin.mkdirs(new Path("/objacl"));
    admin.setPermission(new Path("/objacl"), new FsPermission((short) 0777));
  }

  @AfterAll
  static void tearDown() throws IOException {
    for (FileSystem fs : new FileSystem[] {alice, bob, admin}) {
      if (fs != null) {
        fs.close();
      }
    }
  }

  private static void write(Path file, int mode) throws IOException {
    try (FSDataOutputStream out = alice.create(file, new FsPermission((short) mode), false, 4096, (short) 1,
        1 << 20, null)) {
      out.write(TestData.bytes(3, LARGE));
    }
  }

  private static Path objectOf(Path file) throws IOException {
    String name = ((IndexFileStatus) admin.getFileStatus(file)).dataObject();
    assertThat(name).as("object of %s", file).isNotNull();
    return TestData.objectPath(IndexFsTestCluster.get(), name);
  }

  private static byte[] readAsBob(Path file) throws IOException {
    try (FSDataInputStream in = bob.open(file)) {
      return in.readAllBytes();
    }
  }

  @Test
  void aNamedUserEntryLetsBobReadTheBytesAndItsRemovalStopsHim() throws Exception {
    Path file = new Path("/objacl/shared-by-acl");
    write(file, 0600);
    alice.setPermission(file, new FsPermission((short) 0600));
    assertThrows(AccessControlException.class, () -> readAsBob(file), "no entry for bob yet");

    List<AclEntry> bobReads = AclEntry.parseAclSpec("user:bob:r--", true);
    alice.modifyAclEntries(file, bobReads);
    assertThat(hdfs.getAclStatus(objectOf(file)).getEntries()).as("the object's ACL")
        .containsAll(AclEntry.parseAclSpec("user:bob:r--", true));
    assertArrayEquals(TestData.bytes(3, LARGE), readAsBob(file), "IndexFS admits bob, and so does the data tier");

    alice.removeAclEntries(file, AclEntry.parseAclSpec("user:bob", false));
    // As on HDFS, the mask stays (the ACL is still extended, with group::---): the object has the same.
    assertThat(hdfs.getAclStatus(objectOf(file)).getEntries()).isEqualTo(alice.getAclStatus(file).getEntries())
        .doesNotContainAnyElementsOf(bobReads);
    alice.removeAcl(file);
    assertThat(hdfs.getAclStatus(objectOf(file)).getEntries()).isEmpty();
    assertThat(hdfs.getFileStatus(objectOf(file)).getPermission()).isEqualTo(new FsPermission((short) 0600));
    assertThrows(AccessControlException.class, () -> readAsBob(file), "refused again");
  }

  @Test
  void aFileThatInheritsADefaultAclGivesItToItsObject() throws Exception {
    Path dir = new Path("/objacl/team");
    alice.mkdirs(dir, new FsPermission((short) 0700));
    alice.setAcl(dir, AclEntry.parseAclSpec(
        "user::rwx,group::---,other::---,user:bob:r-x,default:user::rwx,default:group::---,default:other::---,"
            + "default:user:bob:r--", true));
    Path file = new Path(dir, "report");
    write(file, 0640);
    assertThat(alice.getAclStatus(file).getEntries()).containsAll(AclEntry.parseAclSpec("user:bob:r--", true));
    assertThat(hdfs.getAclStatus(objectOf(file)).getEntries()).as("the object's ACL")
        .containsAll(AclEntry.parseAclSpec("user:bob:r--", true));
    assertArrayEquals(TestData.bytes(3, LARGE), readAsBob(file));
  }
}
