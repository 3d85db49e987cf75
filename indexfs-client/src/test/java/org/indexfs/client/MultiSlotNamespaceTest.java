package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.ContentSummary;
import org.indexfs.proto.FileStatus;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A namespace spread over four slots (four servers in one process): directories placed by power
 * of two choices, paths resolved by the client across slots, and the operations whose directory
 * entry and partition live on different slots (chmod, rmdir, recursive delete, summaries).
 */
class MultiSlotNamespaceTest {
  static final int SLOTS = 4;
  @TempDir
  static Path workDir;
  static LocalCluster cluster;
  static IndexFsClient admin;

  @BeforeAll
  static void start() throws IOException {
    cluster = LocalCluster.builder(workDir).clusterName("four").servers(SLOTS)
        .set(IndexFsConfig.HOME_SYNC_INTERVAL_MS.name(), "200").start();
    admin = client(TestData.USER, List.of());
  }

  @AfterAll
  static void stop() {
    admin.close();
    cluster.close();
  }

  static IndexFsClient client(String user, List<String> groups) throws IOException {
    return Slots.client(cluster, user, groups);
  }

  static FileStatus dirNotOn(String parent, String prefix, int avoid) throws IOException {
    return Slots.dirNotOn(admin, parent, prefix, avoid);
  }

  static String child(String parent, FileStatus st) {
    return Slots.child(parent, st.getName());
  }

  @Test
  void directoriesSpreadOverSlotsAndEveryPathResolves() throws IOException {
    admin.mkdirs("/spread", 0755);
    Set<Integer> homes = new HashSet<>();
    for (int i = 0; i < 40; i++) {
      String d = "/spread/d" + i;
      assertTrue(admin.mkdirs(d, 0755));
      admin.mkdirs(d + "/sub", 0755);
      admin.create(d + "/sub/f", 0644, false, 1, 1 << 20, false);
      admin.create(d + "/g", 0644, false, 1, 1 << 20, false);
      homes.add(admin.getFileStatus(d).getZerothSlot());
    }
    assertTrue(homes.size() >= 3, "40 directories placed on " + homes);
    Set<String> names = admin.listAll("/spread").stream().map(FileStatus::getName).collect(Collectors.toSet());
    assertEquals(40, names.size());
    for (int i = 0; i < 40; i++) {
      assertEquals(List.of("g", "sub"), admin.listAll("/spread/d" + i).stream().map(FileStatus::getName)
          .sorted().toList());
      assertEquals(0644, admin.getFileStatus("/spread/d" + i + "/sub/f").getPermission());
    }
    ContentSummary s = admin.contentSummary("/spread");
    assertEquals(80, s.getFileCount());
    assertEquals(81, s.getDirectoryCount());
  }

  @Test
  void permissionsOfADirectoryReachItsHomeSlot() throws IOException {
    FileStatus dir = dirNotOn("/", "shared", 0);
    String path = "/" + dir.getName();
    try (IndexFsClient bob = client("bob", List.of("users"))) {
      bob.create(path + "/before", 0644, false, 1, 1 << 20, false);
      admin.setPermission(path, 0555);
      IndexFsException e = assertThrows(IndexFsException.class,
          () -> bob.create(path + "/after", 0644, false, 1, 1 << 20, false));
      assertEquals(Code.ACCESS_DENIED, e.code());
      admin.setOwner(path, "bob", "users");
      admin.setPermission(path, 0700);
      bob.create(path + "/owned", 0644, false, 1, 1 << 20, false);
    }
  }

  @Test
  void rmdirOfADirectoryHomedElsewhereSealsItOnlyWhenEmpty() throws Exception {
    FileStatus dir = dirNotOn("/", "rm", 0);
    String path = "/" + dir.getName();
    admin.create(path + "/f", 0644, false, 1, 1 << 20, false);
    IndexFsException e = assertThrows(IndexFsException.class, () -> admin.delete(path, false));
    assertEquals(Code.DIRECTORY_NOT_EMPTY, e.code());
    admin.create(path + "/g", 0644, false, 1, 1 << 20, false);
    assertTrue(admin.delete(path + "/f", false));
    assertTrue(admin.delete(path + "/g", false));
    assertTrue(admin.delete(path, false));
    assertThrows(IndexFsException.class, () -> admin.getFileStatus(path));
    // Told at once, or (its home busy: a warning) by the home-sync's next round: the home ends up agreeing.
    long deadline = System.currentTimeMillis() + 15_000;
    while (cluster.server(dir.getZerothSlot()).namespace().partition(dir.getInodeId()) != null
        && System.currentTimeMillis() < deadline) {
      Thread.sleep(100);
    }
    assertNull(cluster.server(dir.getZerothSlot()).namespace().partition(dir.getInodeId()),
        "the home slot dropped the partition");
  }

  @Test
  void recursiveDeleteReclaimsEverySlotTheSubtreeTouched() throws Exception {
    FileStatus top = dirNotOn("/", "tree", 0);
    String path = "/" + top.getName();
    FileStatus mid = dirNotOn(path, "mid", top.getZerothSlot());
    String midPath = child(path, mid);
    admin.create(midPath + "/f", 0644, false, 1, 1 << 20, false);
    assertTrue(admin.delete(path, true));
    assertThrows(IndexFsException.class, () -> admin.getFileStatus(midPath + "/f"));
    long deadline = System.currentTimeMillis() + 20_000;
    while (cluster.server(mid.getZerothSlot()).namespace().partition(mid.getInodeId()) != null
        || cluster.server(top.getZerothSlot()).namespace().partition(top.getInodeId()) != null) {
      assertTrue(System.currentTimeMillis() < deadline, "partitions of the deleted tree are reclaimed");
      Thread.sleep(50);
    }
  }

  @Test
  void aWarmCacheResolvesADeepPathInOneRpcAndAColdOneCostsDepthPlusOne() throws IOException {
    // Depth 8, every directory homed on another slot than its parent: each level is a slot change.
    String dir = "/";
    int slot = 0;
    for (int depth = 1; depth <= 8; depth++) {
      FileStatus next = dirNotOn(dir, "deep" + depth + "-", slot);
      dir = child(dir, next);
      slot = next.getZerothSlot();
    }
    admin.create(dir + "/f", 0644, false, 1, 1 << 20, false);
    try (IndexFsClient fresh = client(TestData.USER, List.of())) {
      RpcCounters c = fresh.rpcCounters();
      fresh.getFileStatus(dir + "/f");
      long cold = c.get(RpcCounters.TOTAL);
      assertEquals(8 + 1, cold, "cold getFileStatus at depth 8: one RPC per slot change, plus the call");
      fresh.getFileStatus(dir + "/f");
      assertEquals(cold + 1, c.get(RpcCounters.TOTAL), "warm getFileStatus: one RPC");
      fresh.create(dir + "/g", 0644, false, 1, 1 << 20, false);
      assertEquals(cold + 2, c.get(RpcCounters.TOTAL), "warm create: one RPC");
      System.out.printf("depth 8: cold getFileStatus %d RPCs, warm getFileStatus 1, warm create 1%n", cold);
    }
    try (IndexFsClient fresh = client(TestData.USER, List.of())) {
      fresh.create(dir + "/h", 0644, false, 1, 1 << 20, false);
      assertEquals(8 + 1, fresh.rpcCounters().get(RpcCounters.TOTAL), "cold create at depth 8");
    }
  }

  @Test
  void listingAndSummaryOfAnEmptyTreeAcrossSlots() throws IOException {
    FileStatus dir = dirNotOn("/", "empty", 0);
    assertTrue(admin.listAll("/" + dir.getName()).isEmpty());
    assertEquals(1, admin.contentSummary("/" + dir.getName()).getDirectoryCount());
    assertFalse(new TreeSet<>(admin.listAll("/").stream().map(FileStatus::getName).toList()).isEmpty());
  }

  @Test
  void serversCountOperationsAndRedirectsOnJmx() throws Exception {
    javax.management.MBeanServer mbeans = java.lang.management.ManagementFactory.getPlatformMBeanServer();
    List<javax.management.ObjectName> names = new java.util.ArrayList<>();
    for (int slot = 0; slot < SLOTS; slot++) {
      names.add(cluster.server(slot).metrics().objectName());
    }
    admin.mkdirs("/metrics", 0755);
    for (int i = 0; i < 20; i++) {
      FileStatus d = dirNotOn("/metrics", "m" + i + "-", -1);
      admin.create("/metrics/" + d.getName() + "/f", 0644, false, 1, 1 << 20, false);
    }
    List<String> dirs = admin.listAll("/metrics").stream().map(st -> "/metrics/" + st.getName()).toList();
    long redirectsBefore = 0;
    long opsBefore = 0;
    for (javax.management.ObjectName n : names) {
      redirectsBefore += (Long) mbeans.getAttribute(n, "Redirects");
      opsBefore += (Long) mbeans.getAttribute(n, "OperationsServed");
    }
    try (IndexFsClient fresh = client(TestData.USER, List.of())) {
      int calls = 0;
      long coldRedirects = 0;
      for (int round = 0; round < 50; round++) {
        for (String d : dirs) {
          fresh.getFileStatus(d + "/f");
          calls++;
        }
        if (round == 0) {
          coldRedirects = fresh.rpcCounters().get("resolve.elsewhere");
        }
      }
      long redirects = -redirectsBefore;
      long ops = -opsBefore;
      for (javax.management.ObjectName n : names) {
        redirects += (Long) mbeans.getAttribute(n, "Redirects");
        ops += (Long) mbeans.getAttribute(n, "OperationsServed");
      }
      assertEquals(fresh.rpcCounters().get("resolve.elsewhere"), redirects, "every redirect a client saw was counted");
      // Background passes between servers (home syncs) may add a few.
      assertTrue(ops >= calls, "every call was served: " + ops + " of " + calls);
      System.out.printf("redirects per 1,000 operations: %.1f (%d redirects, %d getFileStatus over %d directories;"
          + " %d of them in the cold first round, %.1f per 1,000 after it)%n", 1000.0 * redirects / calls, redirects,
          calls, dirs.size(), coldRedirects, 1000.0 * (redirects - coldRedirects) / (calls - dirs.size()));
    }
  }

  @Test
  void aClientDropsItsConnectionWhenASlotChangesOwner() throws Exception {
    FileStatus dir = dirNotOn("/", "watched", 0);
    ClusterConnection c = ClusterConnection.openUnshared(cluster.zookeeperConnect(), cluster.clusterName(),
        IndexFsConfig.RPC_MAX_FRAME_BYTES.defaultValue(), 10_000);
    try (IndexFsClient client = new IndexFsClient(c, IndexFsClient.caller(TestData.USER, List.of(), "w"), 30_000)) {
      client.create("/" + dir.getName() + "/f", 0644, false, 1, 1 << 20, false);
      int slot = dir.getZerothSlot();
      assertTrue(c.connectedTo(slot));
      cluster.restartServer(slot);
      long deadline = System.currentTimeMillis() + 10_000;
      while (c.connectedTo(slot)) {
        assertTrue(System.currentTimeMillis() < deadline, "the slot watch dropped the old connection");
        Thread.sleep(20);
      }
      assertEquals("f", client.getFileStatus("/" + dir.getName() + "/f").getName());
    }
  }
}
