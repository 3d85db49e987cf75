package org.indexfs.hadoop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.security.PrivilegedExceptionAction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.indexfs.common.ObjectNames;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 15, finding 5: going around IndexFS through plain HDFS gets bob nothing IndexFS would not
 * give him. alice's object cannot be read, overwritten, appended to or deleted by bob, the slot's
 * object directory cannot be listed, and names cannot be guessed to squat on them; the object
 * carries alice's file's owner, group and mode, and chmod and chown of the file reach it.
 */
class DataObjectProtectionTest {
  private static final int LARGE = 200_000;
  private static final UserGroupInformation ALICE =
      UserGroupInformation.createUserForTesting("alice", new String[] {"alicegroup"});
  private static final UserGroupInformation BOB = UserGroupInformation.createUserForTesting("bob", new String[] {"bobgroup"});

  private static LocalCluster cluster;
  private static FileSystem admin;
  private static FileSystem alice;
  private static FileSystem bob;
  private static FileSystem hdfs;
  private static FileSystem hdfsBob;

  @BeforeAll
  static void setUp() throws Exception {
    cluster = IndexFsTestCluster.get();
    Configuration conf = IndexFsTestCluster.conf();
    admin = FileSystem.newInstance(IndexFsTestCluster.uri(), conf);
    alice = as(ALICE, () -> FileSystem.newInstance(IndexFsTestCluster.uri(), conf));
    bob = as(BOB, () -> FileSystem.newInstance(IndexFsTestCluster.uri(), conf));
    hdfs = IndexFsTestCluster.hdfs().fileSystem();
    Configuration hconf = new Configuration(hdfs.getConf());
    hdfsBob = as(BOB, () -> FileSystem.newInstance(hdfs.getUri(), hconf));
    admin.mkdirs(new Path("/objsec"));
    admin.setPermission(new Path("/objsec"), new FsPermission((short) 0777));
  }

  @AfterAll
  static void tearDown() throws IOException {
    for (FileSystem fs : new FileSystem[] {alice, bob, hdfsBob, admin}) {
      if (fs != null) {
        fs.close();
      }
    }
  }

  private static <T> T as(UserGroupInformation ugi, PrivilegedExceptionAction<T> action) throws Exception {
    return ugi.doAs(action);
  }

  private static Path objectOf(Path file) throws IOException {
    String name = ((IndexFileStatus) admin.getFileStatus(file)).dataObject();
    assertThat(name).as("object of %s", file).isNotNull().matches("\\d+/[0-9a-f]{32}");
    return TestData.objectPath(cluster, name);
  }

  private static Path aliceSecret(String name) throws IOException {
    Path file = new Path("/objsec/" + name);
    try (FSDataOutputStream out = alice.create(file, new FsPermission((short) 0600), false, 4096, (short) 1,
        1 << 20, null)) {
      out.write(TestData.bytes(7, LARGE));
    }
    alice.setPermission(file, new FsPermission((short) 0600));
    return file;
  }

  @Test
  void bobIsRefusedOnAlicesObjectThroughPlainHdfs() throws Exception {
    Path file = aliceSecret("secret");
    Path object = objectOf(file);
    FileStatus st = hdfs.getFileStatus(object);
    assertThat(st.getOwner()).isEqualTo("alice");
    assertThat(st.getGroup()).isEqualTo(admin.getFileStatus(file).getGroup());
    assertThat(st.getPermission()).isEqualTo(new FsPermission((short) 0600));

    assertThrows(AccessControlException.class, () -> hdfsBob.open(object).read(), "read");
    assertThrows(AccessControlException.class, () -> hdfsBob.create(object, true).close(), "overwrite");
    assertThrows(AccessControlException.class, () -> hdfsBob.append(object).close(), "append");
    assertThrows(AccessControlException.class, () -> hdfsBob.delete(object, false), "delete");
    assertThrows(AccessControlException.class, () -> hdfsBob.rename(object, new Path(object.getParent(), "mine")),
        "rename away");
    assertThrows(AccessControlException.class, () -> hdfsBob.listStatus(object.getParent()), "list the slot");
    assertThrows(AccessControlException.class, () -> bob.open(file).read(), "and through IndexFS as well");
    try (FSDataInputStream in = alice.open(file)) {
      assertArrayEquals(TestData.bytes(7, LARGE), in.readAllBytes(), "alice's bytes are hers");
    }
  }

  @Test
  void namesCannotBeGuessedSoSquattingGetsNothing() throws Exception {
    Path first = objectOf(aliceSecret("one"));
    Path second = objectOf(aliceSecret("two"));
    // No order to extrapolate: 128 random bits each.
    assertThat(first.getName()).isNotEqualTo(second.getName());
    assertThat(Long.parseUnsignedLong(first.getName().substring(0, 15), 16) + 1)
        .isNotEqualTo(Long.parseUnsignedLong(second.getName().substring(0, 15), 16));
    // bob squats on every name he could think of; alice's next files are unaffected.
    for (int i = 0; i < 5; i++) {
      hdfsBob.create(TestData.objectPath(cluster, ObjectNames.fresh(0)), false).close();
    }
    Path third = aliceSecret("three");
    try (FSDataInputStream in = alice.open(third)) {
      assertArrayEquals(TestData.bytes(7, LARGE), in.readAllBytes());
    }
  }

  @Test
  void chmodAndChownOfTheFileReachItsObject() throws Exception {
    Path file = aliceSecret("shared");
    Path object = objectOf(file);
    alice.setPermission(file, new FsPermission((short) 0644));
    assertThat(hdfs.getFileStatus(object).getPermission()).isEqualTo(new FsPermission((short) 0644));
    try (FSDataInputStream in = hdfsBob.open(object)) {
      assertThat(in.readAllBytes()).hasSize(LARGE); // allowed by IndexFS, so by HDFS too
    }
    try (FSDataInputStream in = bob.open(file)) {
      assertThat(in.readAllBytes()).hasSize(LARGE);
    }
    alice.setPermission(file, new FsPermission((short) 0600));
    assertThrows(AccessControlException.class, () -> hdfsBob.open(object).read());
    admin.setOwner(file, "bob", "bobgroup");
    assertThat(hdfs.getFileStatus(object).getOwner()).isEqualTo("bob");
    assertThat(hdfs.getFileStatus(object).getGroup()).isEqualTo("bobgroup");
    try (FSDataInputStream in = hdfsBob.open(object)) {
      assertThat(in.readAllBytes()).hasSize(LARGE);
    }
  }
}
