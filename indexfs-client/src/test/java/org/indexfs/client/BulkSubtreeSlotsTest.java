package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.indexfs.client.bulk.BulkInsertion;
import org.indexfs.client.bulk.DirectoryShipper;
import org.indexfs.client.bulk.LocalSubtree;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.FileStatus;
import org.indexfs.server.FaultPoints;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bulk insertion into a subtree whose directories, made before the localization, are homed on
 * other slots than its root (placement spreads server-side mkdirs by load), on four slots: those
 * slots hold off other clients during the localization as the root's does, and a publish into
 * them is split per slot and ingested on all of them or none.
 */
class BulkSubtreeSlotsTest {
  private static final int SLOTS = 4;

  @TempDir
  static Path workDir;
  static LocalCluster cluster;
  static IndexFsClient admin;
  static IndexFsClient reader;

  @BeforeAll
  static void start() throws IOException {
    cluster = LocalCluster.builder(workDir).clusterName("bulksubtree").servers(SLOTS)
        // Renewed every 1.7 s: a loaded machine's late renewal must not end it.
        .set(IndexFsConfig.LOCALIZE_LEASE_MS.name(), "5000").start();
    admin = BulkPublishTest.client(cluster, TestData.USER, "admin");
    reader = BulkPublishTest.client(cluster, "reader", "reader");
    reader.waitForLocalized(0);
  }

  @AfterAll
  static void stop() {
    reader.close();
    admin.close();
    cluster.close();
  }

  @AfterEach
  void noHook() {
    FaultPoints.install(null);
  }

  static BulkInsertion bulk(IndexFsClient c) {
    return new BulkInsertion(c, new DirectoryShipper(cluster.dataUri()), "buffer", workDir.resolve("scratch"),
        100_000, 1L << 30);
  }

  /** {@code root} made, with a subdirectory homed on another slot (its path) holding one file "pre". */
  static String subdirElsewhere(String root) throws IOException {
    admin.mkdirs(root, 0777);
    int home = admin.getFileStatus(root).getZerothSlot();
    FileStatus sub = Slots.dirNotOn(admin, root, "s", home);
    assertNotEquals(home, sub.getZerothSlot());
    String path = root + "/" + sub.getName();
    TestData.createClosed(admin, path + "/pre");
    return path;
  }

  static Set<String> names(String dir) throws IOException {
    return reader.listAll(dir).stream().map(FileStatus::getName).collect(Collectors.toCollection(TreeSet::new));
  }

  static void refused(String path) {
    IndexFsException e = assertThrows(IndexFsException.class, () -> TestData.createClosed(reader, path));
    assertEquals(Code.SUBTREE_LOCALIZED, e.code(), path + ": " + e.getMessage());
  }

  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void anotherClientsChangesInASubdirectoryHomedElsewhereAreHeldOff() throws Exception {
    String s0 = subdirElsewhere("/held");
    try (IndexFsClient holder = BulkPublishTest.client(cluster, TestData.USER, "holder-held")) {
      BulkInsertion bulk = bulk(holder);
      LocalSubtree t = bulk.localize("/held", 0777, false);
      refused("/held/direct");
      refused(s0 + "/x");
      IndexFsException e = assertThrows(IndexFsException.class, () -> reader.mkdirs(s0 + "/d", 0755));
      assertEquals(Code.SUBTREE_LOCALIZED, e.code(), e.getMessage());
      // Reads are allowed: they see the last publish.
      assertEquals(Set.of("pre"), names(s0));
      t.publish(true);
    }
    // Released: the subdirectory's slot is an ordinary one again.
    TestData.createClosed(reader, s0 + "/x");
    assertEquals(Set.of("pre", "x"), names(s0));
  }

  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void aLeaseRunningOutLeavesNothingAndLiftsTheHoldOnEverySlot() throws Exception {
    String s0 = subdirElsewhere("/expiring");
    try (IndexFsClient holder = BulkPublishTest.client(cluster, TestData.USER, "holder-exp")) {
      BulkInsertion bulk = bulk(holder);
      LocalSubtree t = bulk.localize("/expiring", 0777, false);
      t.complete(t.create("/expiring/top", 0644, false, 1, 1 << 20).status().getInodeId(), 0, new byte[0], null);
      t.complete(t.create(s0 + "/mine", 0644, false, 1, 1 << 20).status().getInodeId(), 0, new byte[0], null);
      refused(s0 + "/early");
      bulk.stopRenewing();
      Thread.sleep(6_500);
      assertEquals(Set.of("pre"), names(s0));
      assertFalse(names("/expiring").contains("top"));
      // The hold is lifted on both slots.
      TestData.createClosed(reader, s0 + "/late");
      TestData.createClosed(reader, "/expiring/late");
      assertEquals(Code.LEASE_EXPIRED, assertThrows(IndexFsException.class, () -> t.publish(true)).code());
      assertEquals(Set.of("pre", "late"), names(s0));
      assertTrue(names("/expiring").contains("late"));
    }
  }
}
