package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.indexfs.client.bulk.BulkInsertion;
import org.indexfs.client.bulk.LocalSubtree;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.PublishResult;
import org.indexfs.proto.Rejection;
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
  private static final int SLOTS = BulkSlots.SLOTS;

  @TempDir
  static Path workDir;
  static BulkSlots slots;
  static LocalCluster cluster;
  static IndexFsClient admin;
  static IndexFsClient reader;

  @BeforeAll
  static void start() throws IOException {
    // Renewed every 1.7 s: a loaded machine's late renewal must not end it.
    slots = BulkSlots.start(workDir, "bulksubtree", Map.of(IndexFsConfig.LOCALIZE_LEASE_MS.name(), "5000"));
    cluster = slots.cluster;
    admin = slots.admin;
    reader = slots.reader;
  }

  @AfterAll
  static void stop() {
    slots.close();
  }

  @AfterEach
  void noHook() {
    FaultPoints.install(null);
  }

  static BulkInsertion bulk(IndexFsClient c) {
    return slots.bulk(c);
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
    return slots.names(dir);
  }

  static void refused(String path) {
    slots.refused(path);
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

  static void file(LocalSubtree t, String path) throws IOException {
    t.complete(t.create(path, 0644, false, 1, 1 << 20).status().getInodeId(), 1, new byte[] {7}, null);
  }

  static boolean exists(String path) throws IOException {
    return slots.exists(path);
  }

  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void aPublishIntoSubdirectoriesHomedElsewhereAppearsOnEverySlotAtOnce() throws Exception {
    String s0 = subdirElsewhere("/pub");
    int s0Slot = admin.getFileStatus(s0).getZerothSlot();
    // Deeper: a directory of s0 homed on another slot than s0's (the root's or a third one).
    FileStatus deep = Slots.dirNotOn(admin, s0, "t", s0Slot);
    String t0 = s0 + "/" + deep.getName();
    Set<String> before = names(s0); // "pre" and the t* directories placement made on the way
    try (IndexFsClient holder = BulkPublishTest.client(cluster, TestData.USER, "holder-pub")) {
      BulkInsertion bulk = bulk(holder);
      LocalSubtree t = bulk.localize("/pub", 0777, false);
      file(t, "/pub/top");
      file(t, s0 + "/mine");
      t.mkdirs(s0 + "/nd", 0755);
      file(t, s0 + "/nd/f");
      file(t, t0 + "/deep");
      refused(t0 + "/other");

      // Another client sees none of it before the publish, on any slot.
      for (String p : new String[] {"/pub/top", s0 + "/mine", s0 + "/nd", t0 + "/deep"}) {
        assertFalse(exists(p), p);
      }
      assertEquals(before, names(s0));
      PublishResult r = t.publish(true);
      assertEquals(0, r.getRejectedCount(), r.toString());
      assertEquals(5, r.getIngested(), r.toString());
    }
    assertTrue(names("/pub").contains("top"));
    Set<String> after = new TreeSet<>(before);
    after.addAll(Set.of("mine", "nd"));
    assertEquals(after, names(s0));
    assertEquals(Set.of("f"), names(s0 + "/nd"));
    assertEquals(Set.of("deep"), names(t0));
    assertEquals(1, reader.getFileStatus(s0 + "/mine").getLength());
    assertEquals(1, reader.getFileStatus(s0 + "/nd/f").getLength());
    assertEquals(1, reader.getFileStatus(t0 + "/deep").getLength());
    // Released everywhere: ordinary directories again.
    TestData.createClosed(reader, s0 + "/after");
    TestData.createClosed(reader, t0 + "/after");
    TestData.createClosed(admin, s0 + "/nd/after");
  }

  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void aPublishReachesADirectoryHomedWithItsParentOnAnotherSlot() throws Exception {
    String s0 = subdirElsewhere("/same");
    int s0Slot = admin.getFileStatus(s0).getZerothSlot();
    // Homed on s0's slot: the root's slot walks neither it nor its entry; s0's slot walks both.
    String t0 = Slots.dirOn(admin, s0, "t", s0Slot);
    try (IndexFsClient holder = BulkPublishTest.client(cluster, TestData.USER, "holder-same")) {
      BulkInsertion bulk = bulk(holder);
      LocalSubtree t = bulk.localize("/same", 0777, false);
      file(t, t0 + "/deep");
      refused(t0 + "/other");
      assertFalse(exists(t0 + "/deep"));
      PublishResult r = t.publish(true);
      assertEquals(0, r.getRejectedCount(), r.toString());
      assertEquals(1, r.getIngested(), r.toString());
    }
    assertEquals(Set.of("deep"), names(t0));
    TestData.createClosed(reader, t0 + "/after");
  }

  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void entriesASubdirectorysSlotRefusesAreReportedWithWhatTheyHold() throws Exception {
    admin.mkdirs("/perm", 0777);
    int home = admin.getFileStatus("/perm").getZerothSlot();
    FileStatus ro = Slots.dirNotOn(admin, "/perm", "ro", home);
    String s0 = "/perm/" + ro.getName();
    admin.setPermission(s0, 0755); // the holder (another user) may not write there
    Set<String> before = names("/perm");
    try (IndexFsClient holder = BulkPublishTest.client(cluster, "bob", "holder-perm")) {
      BulkInsertion bulk = bulk(holder);
      LocalSubtree t = bulk.localize("/perm", 0777, false);
      file(t, "/perm/ok");
      file(t, s0 + "/mine");
      t.mkdirs(s0 + "/nd", 0755);
      long nd = t.getFileStatus(s0 + "/nd").getInodeId();
      file(t, s0 + "/nd/f");
      PublishResult r = t.publish(true);
      Set<String> rejected = r.getRejectedList().stream().map(Rejection::getPath).collect(Collectors.toSet());
      assertEquals(Set.of(s0 + "/mine", s0 + "/nd", s0 + "/nd/f"), rejected, r.toString());
      assertEquals(1, r.getIngested(), r.toString());
      for (int slot = 0; slot < SLOTS; slot++) {
        assertEquals(0, Slots.entriesOn(cluster, slot, nd), "nothing of the refused directory on slot " + slot);
      }
    }
    before.add("ok");
    assertEquals(before, names("/perm"));
    assertTrue(names(s0).isEmpty());
  }
}
