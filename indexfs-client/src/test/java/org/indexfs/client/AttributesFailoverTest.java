package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.AclEditRequest;
import org.indexfs.proto.AclStatus;
import org.indexfs.proto.Code;
import org.indexfs.proto.XAttr;
import org.indexfs.server.SlotRunner;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Extended attributes, ACLs and quotas survive a failover (issue 14 × issue 17): their rows live in
 * other column families than the entries (attrs, usage, meta), so this checks that the journal
 * carries them and a standby that took the slot over answers and enforces them as the old active
 * did — a quota's usage included (the standby's counters are the replayed ones, not recounted).
 */
class AttributesFailoverTest {
  @TempDir
  static Path workDir;
  static LocalCluster cluster;
  static IndexFsClient admin;

  @BeforeAll
  static void start() throws IOException {
    cluster = LocalCluster.builder(workDir).clusterName("attrfailover").servers(1)
        .set(IndexFsConfig.JOURNAL_ENABLED.name(), "true")
        .set(IndexFsConfig.ZOOKEEPER_SESSION_TIMEOUT_MS.name(), "3000").start();
    admin = Slots.client(cluster, TestData.USER, List.of());
  }

  @AfterAll
  static void stop() {
    admin.close();
    cluster.close();
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void xattrsAclsAndQuotasAreServedAndEnforcedByTheStandbyThatTookOver() throws Exception {
    SlotRunner standby = cluster.startStandby(0, 1);
    admin.mkdirs("/q", 0755);
    admin.setQuota("/q", 6, Long.MAX_VALUE); // /q itself + 5
    for (int i = 0; i < 4; i++) {
      TestData.createClosed(admin, "/q/f" + i);
    }
    admin.setXAttr("/q/f0", AttributesFollowEntriesTest.xattr("color", "blue"), true, false);
    admin.setXAttr("/q/f1", AttributesFollowEntriesTest.xattr("gone", "soon"), true, false);
    admin.removeXAttr("/q/f1", AttributesFollowEntriesTest.xattr("gone", ""));
    admin.editAcl("/q/f2", AclEditRequest.Action.SET, AttributesFollowEntriesTest.aclFor("reader"));
    AclStatus acl = admin.getAclStatus("/q/f2");
    List<XAttr> xattrs = admin.listXAttrs("/q/f0");

    StandbyCatchUpTest.awaitCaughtUp(cluster, standby);
    StandbyCatchUpTest.failOver(cluster, 0, standby);

    assertEquals(xattrs, admin.listXAttrs("/q/f0"));
    assertEquals("blue", admin.getXAttrs("/q/f0", List.of(AttributesFollowEntriesTest.xattr("color", "")))
        .get(0).getValue().toStringUtf8());
    assertEquals(List.of(), admin.listXAttrs("/q/f1"), "a removed attribute stays removed");
    assertEquals(acl, admin.getAclStatus("/q/f2"));
    assertTrue(admin.getFileStatus("/q/f2").getHasAcl(), "the entry still says it has an ACL");
    // Four files and the directory use 5 of 6: one more fits, the next is refused with HDFS's words.
    TestData.createClosed(admin, "/q/f4");
    IndexFsException e = assertThrows(IndexFsException.class, () -> TestData.createClosed(admin, "/q/f5"));
    assertEquals(Code.NS_QUOTA_EXCEEDED, e.code());
    assertEquals("The NameSpace quota (directories and files) of directory /q is exceeded: quota=6 file count=7",
        e.getMessage());
  }
}
