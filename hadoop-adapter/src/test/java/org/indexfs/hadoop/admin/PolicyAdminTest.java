package org.indexfs.hadoop.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageStatistics;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.indexfs.common.policy.PolicyAt;
import org.indexfs.common.policy.SubtreePolicy;
import org.indexfs.common.policy.SubtreePolicy.Consistency;
import org.indexfs.common.policy.SubtreePolicy.Durability;
import org.indexfs.hadoop.IndexFileSystem;
import org.indexfs.hadoop.IndexFsTestCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Subtree policies (issue 18) through the Hadoop surface: {@code bin/indexfs admin -setPolicy /
 * -getPolicy / -listPolicies / -clrPolicy}, the FileSystem-level API with HDFS's
 * AccessControlException for a non-owner, and {@code localized} consistency: a directory made
 * under a localized subtree is localized by the client that makes it (bulk insertion, issue 13), so
 * its creates cost no RPC and others see them when it publishes.
 */
class PolicyAdminTest {
  private static final UserGroupInformation BOB = UserGroupInformation.createUserForTesting("bob", new String[] {"bobgroup"});
  private static IndexFileSystem fs;
  private static IndexFileSystem reader;
  private static FileSystem bob;

  @BeforeAll
  static void start() throws Exception {
    IndexFsTestCluster.get();
    Configuration conf = IndexFsTestCluster.conf();
    fs = (IndexFileSystem) FileSystem.newInstance(IndexFsTestCluster.uri(), conf);
    reader = (IndexFileSystem) FileSystem.newInstance(IndexFsTestCluster.uri(), IndexFsTestCluster.conf());
    bob = BOB.doAs((PrivilegedExceptionAction<FileSystem>) () -> FileSystem.newInstance(IndexFsTestCluster.uri(), conf));
  }

  @AfterAll
  static void stop() throws Exception {
    fs.close();
    reader.close();
    bob.close();
  }

  private static String[] admin(int expectedExit, String... args) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit = new IndexFsAdmin(IndexFsTestCluster.conf(), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8)).run(args);
    String[] both = {out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
    assertEquals(expectedExit, exit, () -> String.join(" ", args) + ": " + both[0] + both[1]);
    return both;
  }

  @Test
  void adminCommandsSetGetListAndClearPolicies() throws Exception {
    fs.mkdirs(new Path("/pol-cli/ckpt/run-1"));
    String[] set = admin(0, "-setPolicy", "/pol-cli/ckpt", "--consistency", "localized", "--durability", "async");
    assertEquals("Set consistency=localized durability=async on /pol-cli/ckpt\n", set[0]);
    String[] got = admin(0, "-getPolicy", "/pol-cli/ckpt/run-1");
    assertEquals("/pol-cli/ckpt/run-1\tconsistency=localized durability=async\tset at /pol-cli/ckpt\n", got[0]);
    // An option left out keeps what is in force.
    admin(0, "-setPolicy", "/pol-cli/ckpt/run-1", "--durability", "sync");
    assertEquals(new SubtreePolicy(Consistency.LOCALIZED, Durability.SYNC),
        fs.getPolicy(new Path("/pol-cli/ckpt/run-1")).policy());
    String listed = admin(0, "-listPolicies")[0];
    assertTrue(listed.contains("/pol-cli/ckpt\tconsistency=localized durability=async\n"), listed);
    assertTrue(listed.contains("/pol-cli/ckpt/run-1\tconsistency=localized durability=sync\n"), listed);

    admin(0, "-clrPolicy", "/pol-cli/ckpt/run-1");
    assertEquals(new PolicyAt("/pol-cli/ckpt/run-1", new SubtreePolicy(Consistency.LOCALIZED, Durability.ASYNC),
        "/pol-cli/ckpt"), fs.getPolicy(new Path("/pol-cli/ckpt/run-1")));

    String[] bad = admin(-1, "-setPolicy", "/pol-cli/ckpt", "--consistency", "eventual");
    assertTrue(bad[1].startsWith("setPolicy: Unknown consistency 'eventual' (expected strong|localized|decoupled)"), bad[1]);
    fs.mkdirs(new Path("/pol-cli/sandbox"));
    assertEquals("Set consistency=decoupled durability=async on /pol-cli/sandbox\n",
        admin(0, "-setPolicy", "/pol-cli/sandbox", "--consistency", "decoupled", "--durability", "async")[0]);
    assertEquals("Set consistency=decoupled durability=client-journal on /pol-cli/sandbox\n",
        admin(0, "-setPolicy", "/pol-cli/sandbox", "--durability", "client-journal")[0]);
    assertEquals("Replayed 0 operations from dead clients' journals in /pol-cli/ckpt\n",
        admin(0, "-replayJournals", "/pol-cli/ckpt")[0]);
    String[] journalOnStrong = admin(-1, "-setPolicy", "/pol-cli", "--durability", "client-journal");
    assertTrue(journalOnStrong[1].startsWith("setPolicy: Subtree policy durability=client-journal needs"
        + " consistency=localized or decoupled"), journalOnStrong[1]);
    String[] missing = admin(-1, "-getPolicy", "/pol-cli/none");
    assertTrue(missing[1].startsWith("getPolicy: File does not exist: /pol-cli/none"), missing[1]);
  }

  @Test
  void aNonOwnerGetsHdfsAccessControlException() throws Exception {
    fs.mkdirs(new Path("/pol-owner"));
    fs.setPermission(new Path("/pol-owner"), new FsPermission((short) 0777));
    AccessControlException e = assertThrows(AccessControlException.class,
        () -> ((IndexFileSystem) bob).setPolicy(new Path("/pol-owner"), new SubtreePolicy(Consistency.STRONG, Durability.ASYNC)));
    assertTrue(e.getMessage().startsWith("Permission denied. user=bob is not the owner of inode=/pol-owner"), e.getMessage());
    bob.mkdirs(new Path("/pol-owner/bobs"));
    ((IndexFileSystem) bob).setPolicy(new Path("/pol-owner/bobs"), new SubtreePolicy(Consistency.STRONG, Durability.ASYNC));
    assertEquals(Durability.ASYNC, fs.getPolicy(new Path("/pol-owner/bobs")).policy().durability());
  }

  @Test
  void directoriesMadeUnderALocalizedSubtreeAreFilledWithoutRpcsAndAppearAtPublish() throws Exception {
    Path jobs = new Path("/pol-jobs");
    fs.mkdirs(jobs);
    fs.setPolicy(jobs, new SubtreePolicy(Consistency.LOCALIZED, Durability.SYNC));
    Path attempt = new Path(jobs, "_temporary/0/attempt_1");
    assertTrue(fs.mkdirs(attempt));
    StorageStatistics stats = fs.getStorageStatistics();
    long rpcs = stats.getLong("rpc");
    for (int i = 0; i < 50; i++) {
      fs.create(new Path(attempt, "part-" + i)).close();
    }
    assertEquals(50, fs.listStatus(attempt).length);
    assertEquals(rpcs, stats.getLong("rpc"), "creates and listing in a localized subtree go to no server");
    assertEquals(0, reader.listStatus(attempt).length, "others see the subtree as of its last publish");
    assertTrue(fs.publish(attempt).isEmpty());
    assertEquals(50, reader.listStatus(attempt).length);

    // Under a strong subtree, the same costs one call per create at least.
    Path strong = new Path("/pol-strong/attempt_1");
    fs.mkdirs(strong);
    long before = stats.getLong("rpc");
    for (int i = 0; i < 10; i++) {
      fs.create(new Path(strong, "part-" + i)).close();
    }
    assertTrue(stats.getLong("rpc") - before >= 10, "strong: every create is an RPC");
    assertEquals(10, reader.listStatus(strong).length);
  }
}
