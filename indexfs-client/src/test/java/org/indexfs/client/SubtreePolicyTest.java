package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.policy.PolicyAt;
import org.indexfs.common.policy.SubtreePolicy;
import org.indexfs.common.policy.SubtreePolicy.Consistency;
import org.indexfs.common.policy.SubtreePolicy.Durability;
import org.indexfs.proto.Code;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Subtree policies (issue 18) on four slots, so the directories of one subtree live on different
 * slots: a policy set on a directory is in force everywhere below it until a deeper one overrides
 * it, survives a restart of every server (it is journaled in the entry), is set only by the owner or
 * the superuser, travels to clients inside the sealed entries of their lease cache, and policies
 * whose mechanism is not built are refused.
 */
class SubtreePolicyTest {
  private static final int SLOTS = 4;
  private static final SubtreePolicy LOCAL_ASYNC = new SubtreePolicy(Consistency.LOCALIZED, Durability.ASYNC);
  private static final SubtreePolicy STRONG_ASYNC = new SubtreePolicy(Consistency.STRONG, Durability.ASYNC);
  @TempDir
  static Path workDir;
  static LocalCluster cluster;
  static IndexFsClient admin;

  @BeforeAll
  static void start() throws IOException {
    cluster = LocalCluster.builder(workDir).clusterName("policies").servers(SLOTS)
        .set(IndexFsConfig.WAL_SYNC.name(), "true").start();
    admin = Slots.client(cluster, TestData.USER, List.of());
  }

  @AfterAll
  static void stop() {
    admin.close();
    cluster.close();
  }

  @Test
  void policyIsInheritedAcrossSlotsUntilOverriddenAndSurvivesRestart() throws IOException {
    admin.mkdirs("/inherit", 0755);
    // Directories homed on every slot, so the walk below the policy crosses slots.
    String a = Slots.dirOn(admin, "/inherit", "a", 1);
    String b = Slots.dirOn(admin, a, "b", 2);
    String c = Slots.dirOn(admin, b, "c", 3);
    assertEquals(new PolicyAt(c, SubtreePolicy.DEFAULT, null), admin.getPolicy(c));

    admin.setPolicy("/inherit", STRONG_ASYNC);
    assertEquals(new PolicyAt(c, STRONG_ASYNC, "/inherit"), admin.getPolicy(c));
    assertEquals(new PolicyAt(a, STRONG_ASYNC, "/inherit"), admin.getPolicy(a));

    admin.setPolicy(b, LOCAL_ASYNC);
    assertEquals(new PolicyAt(c, LOCAL_ASYNC, b), admin.getPolicy(c));
    assertEquals(new PolicyAt(a, STRONG_ASYNC, "/inherit"), admin.getPolicy(a));
    TestData.createClosed(admin, c + "/f");
    assertEquals(new PolicyAt(c + "/f", LOCAL_ASYNC, b), admin.getPolicy(c + "/f"));

    for (int s = 0; s < SLOTS; s++) {
      cluster.restartServer(s);
    }
    IndexFsClient fresh = Slots.client(cluster, TestData.USER, List.of());
    try {
      assertEquals(new PolicyAt(c, LOCAL_ASYNC, b), fresh.getPolicy(c));
      List<PolicyAt> listed = fresh.listPolicies().stream().filter(p -> p.path().startsWith("/inherit")).toList();
      assertEquals(List.of(new PolicyAt("/inherit", STRONG_ASYNC, "/inherit"), new PolicyAt(b, LOCAL_ASYNC, b)),
          listed);

      fresh.setPolicy(b, null); // cleared: inherits again
      assertEquals(new PolicyAt(c, STRONG_ASYNC, "/inherit"), fresh.getPolicy(c));
      assertEquals(List.of(new PolicyAt("/inherit", STRONG_ASYNC, "/inherit")),
          fresh.listPolicies().stream().filter(p -> p.path().startsWith("/inherit")).toList());
    } finally {
      fresh.close();
    }
  }

  @Test
  void onlyTheOwnerOrTheSuperuserSetsAPolicy() throws IOException {
    admin.mkdirs("/owned", 0777);
    admin.setOwner("/owned", "alice", null);
    IndexFsClient alice = Slots.client(cluster, "alice", List.of("staff"));
    IndexFsClient bob = Slots.client(cluster, "bob", List.of("staff"));
    try {
      IndexFsException refused = assertThrows(IndexFsException.class, () -> bob.setPolicy("/owned", STRONG_ASYNC));
      assertEquals(Code.ACCESS_DENIED, refused.code());
      // HDFS's words for a non-owner's chmod (FSPermissionChecker#checkOwner).
      assertEquals("Permission denied. user=bob is not the owner of inode=/owned", refused.getMessage());
      assertEquals(SubtreePolicy.DEFAULT, bob.getPolicy("/owned").policy());

      alice.setPolicy("/owned", STRONG_ASYNC);
      assertEquals(STRONG_ASYNC, bob.getPolicy("/owned").policy());
      admin.setPolicy("/owned", SubtreePolicy.DEFAULT); // the superuser may, too
      assertEquals(new PolicyAt("/owned", SubtreePolicy.DEFAULT, "/owned"), alice.getPolicy("/owned"));
    } finally {
      alice.close();
      bob.close();
    }
  }

  @Test
  void aClientJournalOnAStrongSubtreeIsRefused() throws IOException {
    admin.mkdirs("/refused", 0755);
    // A strong subtree's calls are journaled by the server: client-journal needs a client working locally.
    IndexFsException journal = assertThrows(IndexFsException.class,
        () -> admin.setPolicy("/refused", new SubtreePolicy(Consistency.STRONG, Durability.CLIENT_JOURNAL)));
    assertEquals(Code.UNSUPPORTED, journal.code());
    assertEquals(new PolicyAt("/refused", SubtreePolicy.DEFAULT, null), admin.getPolicy("/refused"));

    TestData.createClosed(admin, "/refused/file");
    IndexFsException notDir = assertThrows(IndexFsException.class, () -> admin.setPolicy("/refused/file", STRONG_ASYNC));
    assertEquals(Code.NOT_DIRECTORY, notDir.code());
    IndexFsException missing = assertThrows(IndexFsException.class, () -> admin.setPolicy("/refused/none", STRONG_ASYNC));
    assertEquals(Code.FILE_NOT_FOUND, missing.code());
  }

  @Test
  void policiesTravelInTheLeaseCacheAndAChangeRevokesThem() throws Exception {
    admin.mkdirs("/travel", 0777);
    String x = Slots.dirOn(admin, "/travel", "x", 1);
    String y = Slots.dirOn(admin, x, "y", 2);
    admin.setPolicy(x, STRONG_ASYNC);
    IndexFsClient reader = Slots.client(cluster, "carol", List.of());
    try {
      // The walk to y crosses slots: the client is handed (and caches) x's sealed entry with its flags.
      TestData.createClosed(reader, y + "/f");
      long calls = reader.rpcCounters().get(RpcCounters.TOTAL);
      assertEquals(STRONG_ASYNC, reader.cachedPolicy(y + "/g"));
      assertEquals(calls, reader.rpcCounters().get(RpcCounters.TOTAL), "the cached policy costs no call");
      assertNull(reader.cachedPolicy("/elsewhere/never/walked"));

      // A change of policy revokes the leases on x as a chmod does: once it returns, no client may
      // still resolve through the old copy, so the cache answers with the new policy or not at all.
      admin.setPolicy(x, LOCAL_ASYNC);
      SubtreePolicy cached = reader.cachedPolicy(y + "/g");
      assertEquals(true, cached == null || cached.equals(LOCAL_ASYNC), "stale cached policy " + cached);
      TestData.createClosed(reader, y + "/h");
      assertEquals(LOCAL_ASYNC, reader.getPolicy(y + "/h").policy());
    } finally {
      reader.close();
    }
  }

  @Test
  void theRootCanCarryAPolicyToo() throws IOException {
    admin.mkdirs("/rooted/below", 0755);
    // The default, set explicitly: nothing changes for the other tests of this class.
    admin.setPolicy("/", SubtreePolicy.DEFAULT);
    try {
      assertEquals(new PolicyAt("/rooted/below", SubtreePolicy.DEFAULT, "/"), admin.getPolicy("/rooted/below"));
      IndexFsClient other = Slots.client(cluster, "dave", List.of());
      try {
        assertEquals(new PolicyAt("/rooted/below", SubtreePolicy.DEFAULT, "/"), other.getPolicy("/rooted/below"));
      } finally {
        other.close();
      }
    } finally {
      admin.setPolicy("/", null);
    }
    assertEquals(new PolicyAt("/rooted/below", SubtreePolicy.DEFAULT, null), admin.getPolicy("/rooted/below"));
  }
}
