package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.indexfs.client.bulk.BulkInsertion;
import org.indexfs.client.bulk.DirectoryShipper;
import org.indexfs.client.bulk.LocalSubtree;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.PublishResult;
import org.indexfs.proto.Rejection;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bulk insertion end to end on a real server (IndexFS §II-D): a holder builds a subtree in its own
 * memory and publishes it as an SST file; the server validates and ingests it.
 */
class BulkPublishTest {
  @TempDir
  static Path workDir;
  static LocalCluster cluster;
  static IndexFsClient other;

  @BeforeAll
  static void start() throws IOException {
    cluster = LocalCluster.builder(workDir).clusterName("bulk").servers(1)
        .set(IndexFsConfig.LOCALIZE_LEASE_MS.name(), "5000").start(); // renewed every 1.7 s: a loaded machine's late renewal must not end it
    other = client("reader", "other-client");
    other.waitForLocalized(0);
  }

  @AfterAll
  static void stop() {
    other.close();
    cluster.close();
  }

  static IndexFsClient client(String user, String id) throws IOException {
    return client(cluster, user, id);
  }

  static IndexFsClient client(LocalCluster cluster, String user, String id) throws IOException {
    ClusterConnection c = ClusterConnection.openUnshared(cluster.zookeeperConnect(), cluster.clusterName(),
        IndexFsConfig.RPC_MAX_FRAME_BYTES.defaultValue(), 10_000);
    return new IndexFsClient(c, IndexFsClient.caller(user, List.of(), id), 30_000);
  }

  static BulkInsertion bulk(IndexFsClient c) {
    return new BulkInsertion(c, new DirectoryShipper(cluster.dataUri()), "buffer", workDir.resolve("scratch"),
        100_000, 1L << 30);
  }

  static Set<String> names(IndexFsClient c, String dir) throws IOException {
    return c.listAll(dir).stream().map(FileStatus::getName).collect(Collectors.toCollection(TreeSet::new));
  }

  @Test
  void anotherClientSeesTheSubtreeOnlyAfterThePublish() throws Exception {
    try (IndexFsClient holder = client(TestData.USER, "holder-1")) {
      BulkInsertion bulk = bulk(holder);
      LocalSubtree t = bulk.localize("/visible", 0777, false);
      for (int i = 0; i < 50; i++) {
        t.create("/visible/f" + i, 0644, false, 1, 1 << 20);
        t.complete(t.getFileStatus("/visible/f" + i).getInodeId(), 0, new byte[0], null);
      }
      t.mkdirs("/visible/sub/deeper", 0755);
      LocalSubtree.Created small = t.create("/visible/sub/deeper/small", 0640, false, 3, 1 << 20);
      t.complete(small.status().getInodeId(), 5, "hello".getBytes(), null);
      assertTrue(t.rename("/visible/f49", "/visible/sub/moved"));
      assertEquals(5, t.getFileStatus("/visible/sub/deeper/small").getLength());
      assertEquals(Set.of("deeper", "moved"), t.list("/visible/sub").stream().map(FileStatus::getName)
          .collect(Collectors.toSet()));
      assertTrue(other.listAll("/visible").isEmpty(), "nothing is on the server before the publish");
      assertEquals(Code.FILE_NOT_FOUND,
          assertThrows(IndexFsException.class, () -> other.getFileStatus("/visible/f1")).code());

      PublishResult r = bulk.publish("/visible", true);
      assertEquals(0, r.getRejectedCount(), r.toString());
      assertEquals(53, r.getIngested());
      assertEquals(50, names(other, "/visible").size());
      assertEquals(Set.of("deeper", "moved"), names(other, "/visible/sub"));
      assertEquals(Code.ACCESS_DENIED, assertThrows(IndexFsException.class,
          () -> other.open("/visible/sub/deeper/small")).code(), "its mode is checked like any file's");
      assertEquals("hello", holder.open("/visible/sub/deeper/small").getInlineData().toStringUtf8());
      FileStatus s = other.getFileStatus("/visible/sub/deeper/small");
      assertEquals(TestData.USER, s.getOwner());
      assertEquals(0640, s.getPermission());
      assertEquals(3, s.getReplication());
      // The subtree is an ordinary one again: others may change it.
      TestData.createClosed(other, "/visible/by-other");
    }
  }

  @Test
  void entriesTheCallerMayNotWriteAreRejectedAndReportedByName() throws Exception {
    try (IndexFsClient admin = client(TestData.USER, "admin-2"); IndexFsClient holder = client("alice", "holder-2")) {
      admin.mkdirs("/perm", 0777);
      BulkInsertion bulk = bulk(holder);
      LocalSubtree t = bulk.localize("/perm", 0755, false);
      t.mkdirs("/perm/readonly", 0555);
      for (String f : List.of("/perm/ok", "/perm/readonly/a", "/perm/readonly/b")) {
        t.complete(t.create(f, 0644, false, 1, 1 << 20).status().getInodeId(), 0, new byte[0], null);
      }
      PublishResult r = bulk.publish("/perm", true);
      assertEquals(2, r.getIngested(), r.toString());
      assertEquals(Set.of("/perm/readonly/a", "/perm/readonly/b"),
          r.getRejectedList().stream().map(Rejection::getPath).collect(Collectors.toSet()));
      for (Rejection rejection : r.getRejectedList()) {
        assertEquals(Code.ACCESS_DENIED, rejection.getCode());
        assertTrue(rejection.getReason().contains("Permission denied"), rejection.getReason());
      }
      assertEquals(Set.of("ok", "readonly"), names(other, "/perm"));
      assertTrue(names(other, "/perm/readonly").isEmpty());
    }
  }

  @Test
  void aHolderThatDiesLeavesNothingOnceItsLeaseRunsOut() throws Exception {
    try (IndexFsClient holder = client(TestData.USER, "holder-3")) {
      BulkInsertion bulk = bulk(holder);
      LocalSubtree t = bulk.localize("/abandoned", 0777, false);
      for (int i = 0; i < 100; i++) {
        t.complete(t.create("/abandoned/f" + i, 0644, false, 1, 1 << 20).status().getInodeId(), 0, new byte[0], null);
      }
      bulk.stopRenewing();
      Thread.sleep(6_500);
      assertTrue(other.listAll("/abandoned").isEmpty());
      TestData.createClosed(other, "/abandoned/f0");
      assertEquals(Code.LEASE_EXPIRED,
          assertThrows(IndexFsException.class, () -> t.publish(true)).code());
      assertEquals(Set.of("f0"), names(other, "/abandoned"));
    }
  }
}
