package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.indexfs.client.admin.AdminClient;
import org.indexfs.client.bulk.BulkInsertion;
import org.indexfs.client.bulk.DirectoryShipper;
import org.indexfs.client.bulk.LocalSubtree;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.SafeModeRequest;
import org.indexfs.proto.SnapshotRequest;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Calls safe mode refuses since the operation table decided them (it let them through before): a
 * publish, which creates entries as creates and mkdirs do, and a client's snapshot changes, which
 * HDFS's FSNamesystem refuses with the same words. Each goes through once safe mode is off.
 */
class SafeModeTraitsTest {
  @TempDir
  Path workDir;

  @Test
  void aPublishIsRefusedInSafeModeAndLandsAfterIt() throws Exception {
    try (LocalCluster cluster = LocalCluster.builder(workDir.resolve("cluster")).clusterName("pubsafe").servers(1)
        .set(IndexFsConfig.LOCALIZE_LEASE_MS.name(), "5000").start();
        IndexFsClient holder = BulkPublishTest.client(cluster, TestData.USER, "holder");
        BulkInsertion bulk = new BulkInsertion(holder, new DirectoryShipper(cluster.dataUri()), "buffer",
            workDir.resolve("scratch"), 100_000, 1L << 30)) {
      LocalSubtree t = bulk.localize("/bulk", 0777, false);
      t.mkdirs("/bulk/sub", 0755);
      AdminClient admin = new AdminClient(holder);
      admin.safeMode(SafeModeRequest.Action.ENTER);
      try {
        IndexFsException refused = assertThrows(IndexFsException.class, () -> bulk.publish("/bulk", false));
        assertEquals(Code.SAFE_MODE, refused.code(), refused.getMessage());
        assertTrue(refused.getMessage().startsWith("Cannot publish /bulk. Name node is in safe mode."),
            refused.getMessage());
      } finally {
        admin.safeMode(SafeModeRequest.Action.LEAVE);
      }
      assertTrue(bulk.publish("/bulk", true).getIngested() > 0, "the publish lands once safe mode is off");
      assertTrue(holder.getFileStatus("/bulk/sub") != null);
    }
  }

  private static SnapshotRequest.Builder snapshot(SnapshotRequest.Action action, String dir, String name) {
    return SnapshotRequest.newBuilder().setAction(action).setPath(dir).setName(name);
  }

  @Test
  void snapshotChangesAreRefusedInSafeModeAsHdfsRefusesThem() throws Exception {
    try (LocalCluster cluster = LocalCluster.builder(workDir.resolve("snap")).clusterName("snapsafe").servers(1).start();
        IndexFsClient superuser = BulkPublishTest.client(cluster, TestData.USER, "snapshotter")) {
      // The guard comes first, as checkNameNodeSafeMode does in HDFS: no snapshot need exist (and
      // this cluster's file:// data tier cannot take one).
      superuser.mkdirs("/d", 0755);
      superuser.mkdirs("/e", 0755);
      AdminClient admin = new AdminClient(superuser);
      admin.safeMode(SafeModeRequest.Action.ENTER);
      try {
        refused(superuser, snapshot(SnapshotRequest.Action.ALLOW, "/e", ""), "Cannot allow snapshot for /e");
        refused(superuser, snapshot(SnapshotRequest.Action.DISALLOW, "/d", ""), "Cannot disallow snapshot for /d");
        refused(superuser, snapshot(SnapshotRequest.Action.CREATE, "/d", "s2"), "Cannot create snapshot for /d");
        refused(superuser, snapshot(SnapshotRequest.Action.RENAME, "/d", "s1").setNewName("s3"),
            "Cannot rename snapshot for /d");
        refused(superuser, snapshot(SnapshotRequest.Action.DELETE, "/d", "s1"), "Cannot delete snapshot for /d");
        // A read goes on to the operation, which answers for itself (/d is not snapshottable here).
        IndexFsException read = assertThrows(IndexFsException.class,
            () -> superuser.snapshot(snapshot(SnapshotRequest.Action.LIST, "/d", "")));
        assertEquals(Code.SNAPSHOT, read.code(), read.getMessage());
      } finally {
        admin.safeMode(SafeModeRequest.Action.LEAVE);
      }
      superuser.snapshot(snapshot(SnapshotRequest.Action.ALLOW, "/e", "")); // out of safe mode it goes through
    }
  }

  private static void refused(IndexFsClient c, SnapshotRequest.Builder r, String opening) {
    IndexFsException e = assertThrows(IndexFsException.class, () -> c.snapshot(r), r.getAction().toString());
    assertEquals(Code.SAFE_MODE, e.code(), e.getMessage());
    assertTrue(e.getMessage().startsWith(opening + ". Name node is in safe mode."), e.getMessage());
  }
}
