package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.indexfs.client.admin.AdminClient;
import org.indexfs.client.admin.FsckCheck;
import org.indexfs.client.admin.FsckSource;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.SafeModeRequest;
import org.indexfs.server.FaultPoints;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A directory deleted while one of its partitions is being split off to another slot (what
 * RoutingCodesNeverLeakTest's racing clients left behind, found by fsck: a partition and a bitmap of a
 * directory no entry names, and clients looping between slots on them). The delete's DROP goes down
 * the split tree as the splitting slot knows it, which does not name the new partition yet; the
 * split, finishing after, must not bring the directory's bitmap back, and the receiver must drop
 * what it ingested.
 */
class DeleteDuringSplitTest {
  @TempDir
  static Path workDir;
  static LocalCluster cluster;
  static IndexFsClient admin;
  static int counter;

  @BeforeAll
  static void start() throws IOException {
    cluster = LocalCluster.builder(workDir).clusterName("deletesplit").servers(2)
        .set(IndexFsConfig.SPLIT_THRESHOLD.name(), "16")
        .set(IndexFsConfig.HOME_SYNC_INTERVAL_MS.name(), "200")
        .set(IndexFsConfig.WAL_SYNC.name(), "false").start();
    admin = Slots.client(cluster, TestData.USER, List.of());
  }

  @AfterAll
  static void stop() {
    admin.close();
    cluster.close();
  }

  @AfterEach
  void noHook() {
    FaultPoints.install(null);
  }

  /** The directory's entry on its home's slot (deleted there) or on the other (its home told by a DROP). */
  @ParameterizedTest(name = "entry on the home slot: {0}")
  @ValueSource(booleans = {true, false})
  void aDirectoryDeletedWhileItSplitsLeavesNoPartitionAnywhere(boolean entryAtHome) throws Exception {
    int n = counter++;
    String parent = "/ds-parent" + n;
    admin.mkdirs(parent, 0777);
    // The parent holds few names: its one partition, on its home, holds the directory's entry.
    int entrySlot = admin.getFileStatus(parent).getZerothSlot();
    FileStatus dir = Slots.dirNotOn(admin, parent, "d", entryAtHome ? 1 - entrySlot : entrySlot);
    String path = parent + "/" + dir.getName();
    int home = dir.getZerothSlot();
    for (int i = 0; i < 16; i++) {
      TestData.createClosed(admin, path + "/f" + i); // at the threshold, not over it
    }
    CountDownLatch reached = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    FaultPoints.install(p -> {
      if (p.equals("split.ingested") && reached.getCount() > 0) {
        reached.countDown();
        try {
          release.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    });
    // Over it: the home looks every threshold/8 inserts, so the second of these starts its split worker.
    TestData.createClosed(admin, path + "/f16");
    TestData.createClosed(admin, path + "/f17");
    try {
      assertTrue(reached.await(20, TimeUnit.SECONDS), "the split reached the receiver");
      assertTrue(Slots.entriesOn(cluster, 1 - home, dir.getInodeId()) > 0, "the receiver ingested its half");
      assertTrue(admin.delete(path, true), "deleted while its partition is on its way");
    } finally {
      release.countDown();
    }
    assertFalse(exists(path));

    long deadline = System.currentTimeMillis() + 20_000;
    while (Slots.entriesOn(cluster, 0, dir.getInodeId()) + Slots.entriesOn(cluster, 1, dir.getInodeId()) > 0
        || cluster.server(home).splits().inFlight() > 0) {
      assertTrue(System.currentTimeMillis() < deadline, "the directory's entries are reclaimed on both slots");
      Thread.sleep(50);
    }
    assertEquals(List.of(), fsck().problems(), "no partition, bitmap or lease of the deleted directory is left");
  }

  private static boolean exists(String path) throws IOException {
    try {
      admin.getFileStatus(path);
      return true;
    } catch (org.indexfs.common.IndexFsException e) {
      assertEquals(org.indexfs.proto.Code.FILE_NOT_FOUND, e.code());
      return false;
    }
  }

  /** {@code admin -fsck} with the cluster held still; every file here is empty (no data object). */
  private static org.indexfs.client.admin.FsckResult fsck() throws IOException {
    AdminClient a = new AdminClient(admin);
    a.safeMode(SafeModeRequest.Action.ENTER);
    try {
      return FsckCheck.run(FsckSource.of(a, slot -> Map.of()));
    } finally {
      a.safeMode(SafeModeRequest.Action.LEAVE);
    }
  }
}
