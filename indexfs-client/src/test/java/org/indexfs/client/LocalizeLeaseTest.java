package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.InodeIds;
import org.indexfs.proto.Code;
import org.indexfs.proto.LocalizeGrant;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * LOCALIZE leases (IndexFS §II-D) on a real server: durable, with a reserved id block; other
 * clients' mutations inside are refused while reads are allowed and deny the holder's renewal;
 * expiry and release free the subtree.
 */
class LocalizeLeaseTest {
  @TempDir
  static Path workDir;
  static LocalCluster cluster;
  static IndexFsClient holder;
  static IndexFsClient other;

  @BeforeAll
  static void start() throws IOException {
    cluster = LocalCluster.builder(workDir).clusterName("localize").servers(1)
        .set(IndexFsConfig.LOCALIZE_LEASE_MS.name(), "3000").start();
    holder = client("holder");
    other = client("other");
    other.waitForLocalized(0);
  }

  static IndexFsClient client(String id) throws IOException {
    ClusterConnection c = ClusterConnection.openUnshared(cluster.zookeeperConnect(), cluster.clusterName(),
        IndexFsConfig.RPC_MAX_FRAME_BYTES.defaultValue(), 10_000);
    return new IndexFsClient(c, IndexFsClient.caller(TestData.USER, List.of(), id), 30_000);
  }

  @AfterAll
  static void stop() {
    holder.close();
    other.close();
    cluster.close();
  }

  @Test
  void aGrantReservesIdsOfTheSlotAndARestartedServerHonoursIt() throws Exception {
    holder.mkdirs("/durable", 0755);
    LocalizeGrant grant = holder.localize("/durable", false, 1000);
    assertEquals(1, grant.getBlocksCount());
    long first = grant.getBlocks(0).getFirst();
    assertEquals(0, InodeIds.slot(first));
    assertEquals(1000, grant.getBlocks(0).getCount());
    // Ids the server hands out afterwards are never inside the block.
    holder.mkdirs("/elsewhere", 0755);
    long later = holder.getFileStatus("/elsewhere").getInodeId();
    assertTrue(later < first || later >= first + 1000, "server id " + later + " outside the reserved block");

    cluster.restartServer();
    IndexFsException refused = assertThrows(IndexFsException.class, () -> TestData.createClosed(other, "/durable/x"));
    assertEquals(Code.SUBTREE_LOCALIZED, refused.code());
    holder.publish("/durable", "", true);
    TestData.createClosed(other, "/durable/x");
    assertEquals("x", other.getFileStatus("/durable/x").getName());
  }

  @Test
  void readsByAnotherClientAreAnsweredAndDenyTheHoldersRenewal() throws Exception {
    holder.mkdirs("/contended", 0755);
    holder.localize("/contended", false, 10);
    assertFalse(holder.renewLocalization("/contended", 0).getRenewalDenied());
    assertTrue(other.listAll("/contended").isEmpty(), "others see the last publish: nothing yet");
    LocalizeGrant renewed = holder.renewLocalization("/contended", 10);
    assertTrue(renewed.getRenewalDenied(), "renewal denied once another client asked");
    assertEquals(0, renewed.getBlocksCount(), "no more ids for a holder that must publish");
    holder.releaseLocalization("/contended");
    TestData.createClosed(other, "/contended/y");
  }

  @Test
  void aSecondClientCannotTakeAPrivateLocalizationButCanJoinASharedOne() throws Exception {
    holder.mkdirs("/private", 0755);
    holder.localize("/private", false, 10);
    assertEquals(Code.SUBTREE_LOCALIZED,
        assertThrows(IndexFsException.class, () -> other.localize("/private", false, 10)).code());
    assertEquals(Code.SUBTREE_LOCALIZED,
        assertThrows(IndexFsException.class, () -> other.localize("/private", true, 10)).code());
    holder.releaseLocalization("/private");

    holder.mkdirs("/shared", 0755);
    LocalizeGrant a = holder.localize("/shared", true, 10);
    LocalizeGrant b = other.localize("/shared", true, 10);
    assertTrue(b.getShared());
    assertTrue(b.getBlocks(0).getFirst() >= a.getBlocks(0).getFirst() + 10 || b.getBlocks(0).getFirst() + 10 <= a.getBlocks(0).getFirst());
    TestData.createClosed(other, "/shared/by-a-holder-on-the-server");
    assertFalse(holder.renewLocalization("/shared", 0).getRenewalDenied(), "sharers do not contend");
    holder.releaseLocalization("/shared");
    other.releaseLocalization("/shared");
  }

  @Test
  void aLeaseThatRunsOutFreesTheSubtree() throws Exception {
    holder.mkdirs("/expiring", 0755);
    holder.localize("/expiring", false, 10);
    assertEquals(Code.SUBTREE_LOCALIZED,
        assertThrows(IndexFsException.class, () -> TestData.createClosed(other, "/expiring/z")).code());
    Thread.sleep(4_500);
    TestData.createClosed(other, "/expiring/z");
    assertEquals(Code.LEASE_EXPIRED,
        assertThrows(IndexFsException.class, () -> holder.renewLocalization("/expiring", 0)).code());
  }
}
