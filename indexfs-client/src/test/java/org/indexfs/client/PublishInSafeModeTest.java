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
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A publish creates entries as creates and mkdirs do, so safe mode refuses it as HDFS refuses
 * those (it did not before the operation table): nothing is ingested, and the same publish lands
 * once safe mode is off.
 */
class PublishInSafeModeTest {
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
}
