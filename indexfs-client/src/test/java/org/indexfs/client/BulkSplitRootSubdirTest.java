package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.indexfs.client.bulk.BulkInsertion;
import org.indexfs.client.bulk.LocalSubtree;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.giga.GigaIndex;
import org.indexfs.common.giga.PartitionBitmap;
import org.indexfs.common.schema.NameHash;
import org.indexfs.proto.Code;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.PublishResult;
import org.indexfs.proto.Rejection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bulk insertion into a localized directory that has itself split across slots (GIGA+), holding a
 * pre-existing subdirectory whose entry is in the partition away from the root's home and which is
 * homed on a third slot, on four slots with split threshold 40: the partition's slot walks its
 * part of the root at the grant, so that subdirectory's slot holds off other clients and takes no
 * split until the lease ends, and a publish into it lands there (or is refused by name) with the
 * rest; a directory homed on the root's slot below it is held from the grant too.
 */
class BulkSplitRootSubdirTest {
  /** Files filling the root: it splits once (threshold 40), two partitions each under 40. */
  private static final int PRE = 50;

  @TempDir
  static Path workDir;
  static BulkSlots slots;

  @BeforeAll
  static void start() throws IOException {
    slots = BulkSlots.start(workDir, "bulksplitroot", Map.of(IndexFsConfig.SPLIT_THRESHOLD.name(), "40",
        IndexFsConfig.LOCALIZE_LEASE_MS.name(), "5000"));
  }

  @AfterAll
  static void stop() {
    slots.close();
  }

  /** A split root (home, the other partition's slot) and its subdirectory in that partition, homed on a third slot. */
  record Layout(String root, int home, int part, FileStatus dir, String dirPath) {}

  static Layout layout(String root, int mode) throws Exception {
    slots.admin.mkdirs(root, 0777);
    for (int i = 0; i < PRE; i++) {
      TestData.createClosed(slots.admin, root + "/pre-" + i);
    }
    FileStatus r = slots.admin.getFileStatus(root);
    slots.awaitSettled(r.getInodeId(), 2, PRE);
    Set<Integer> holding = slots.slotsHolding(r.getInodeId());
    assertEquals(2, holding.size(), "split once");
    int home = r.getZerothSlot();
    int part = holding.stream().filter(s -> s != home).findFirst().orElseThrow();
    for (int i = 0; i < 400; i++) {
      String name = "d" + i;
      if (slotOf(r, name) != part) {
        continue;
      }
      String path = root + "/" + name;
      slots.admin.mkdirs(path, 0777);
      FileStatus d = slots.admin.getFileStatus(path);
      if (d.getZerothSlot() != home && d.getZerothSlot() != part) {
        slots.admin.setPermission(path, mode);
        return new Layout(root, home, part, slots.admin.getFileStatus(path), path);
      }
      slots.admin.delete(path, false); // homed on the wrong slot: placement is by load
    }
    throw new AssertionError("no directory of " + root + " in slot " + part + "'s partition homed on a third slot");
  }

  /** The slot holding {@code name} in {@code dir}, from the partitions as the slots hold them. */
  static int slotOf(FileStatus dir, String name) {
    PartitionBitmap b = PartitionBitmap.initial();
    for (int slot : slots.slotsHolding(dir.getInodeId())) {
      b.add(Math.floorMod(slot - dir.getZerothSlot(), BulkSlots.SLOTS));
    }
    return GigaIndex.slotOf(dir.getZerothSlot(), GigaIndex.partitionOf(NameHash.of(name), b), BulkSlots.SLOTS);
  }

  /**
   * A new directory of {@code parent} homed on {@code slot}; tries placed elsewhere are removed
   * again, so {@code parent} keeps one new entry (it must not split before the test starts).
   */
  static String dirOn(String parent, int slot) throws IOException {
    for (int i = 0; i < 1000; i++) {
      String path = parent + "/e" + i;
      slots.admin.mkdirs(path, 0777);
      if (slots.admin.getFileStatus(path).getZerothSlot() == slot) {
        return path;
      }
      slots.admin.delete(path, false);
    }
    throw new AssertionError("placement never chose slot " + slot);
  }

  static void file(LocalSubtree t, String path) throws IOException {
    t.complete(t.create(path, 0644, false, 1, 1 << 20).status().getInodeId(), 1, new byte[] {7}, null);
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void othersChangesInsideADirectoryInAnotherPartitionAreHeldOffUntilTheRelease() throws Exception {
    Layout l = layout("/rsheld", 0777);
    try (IndexFsClient holder = BulkPublishTest.client(slots.cluster, TestData.USER, "holder-rsheld")) {
      BulkInsertion bulk = slots.bulk(holder);
      LocalSubtree t = bulk.localize(l.root(), 0777, false);
      slots.refused(l.dirPath() + "/x");
      IndexFsException e = assertThrows(IndexFsException.class, () -> slots.reader.mkdirs(l.dirPath() + "/y", 0755));
      assertEquals(Code.SUBTREE_LOCALIZED, e.code(), e.getMessage());
      assertEquals(Set.of(), slots.names(l.dirPath())); // reads are answered
      t.publish(true);
    }
    TestData.createClosed(slots.reader, l.dirPath() + "/x");
    slots.reader.mkdirs(l.dirPath() + "/y", 0755);
    assertEquals(Set.of("x", "y"), slots.names(l.dirPath()));
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void aLeaseRunningOutLeavesNothingAndLiftsTheHoldInsideIt() throws Exception {
    Layout l = layout("/rsexp", 0777);
    try (IndexFsClient holder = BulkPublishTest.client(slots.cluster, TestData.USER, "holder-rsexp")) {
      BulkInsertion bulk = slots.bulk(holder);
      LocalSubtree t = bulk.localize(l.root(), 0777, false);
      file(t, l.dirPath() + "/mine");
      slots.refused(l.dirPath() + "/late");
      bulk.stopRenewing();
      Thread.sleep(6_500);
      TestData.createClosed(slots.reader, l.dirPath() + "/late");
      assertEquals(Code.LEASE_EXPIRED, assertThrows(IndexFsException.class, () -> t.publish(true)).code());
    }
    assertEquals(Set.of("late"), slots.names(l.dirPath()));
    assertTrue(slots.noMetaUnder("localize/", "localize.from/", "localize.held/"), "no lease record left on any slot");
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void aPublishIntoADirectoryInAnotherPartitionLandsOnItsHomeAndListsEachNameOnce() throws Exception {
    Layout l = layout("/rspub", 0777);
    Set<String> names = new TreeSet<>();
    try (IndexFsClient holder = BulkPublishTest.client(slots.cluster, TestData.USER, "holder-rspub")) {
      BulkInsertion bulk = slots.bulk(holder);
      LocalSubtree t = bulk.localize(l.root(), 0777, false);
      for (int i = 0; i < 8; i++) {
        file(t, l.dirPath() + "/new-" + i);
        names.add("new-" + i);
      }
      t.mkdirs(l.dirPath() + "/nd", 0755);
      file(t, l.dirPath() + "/nd/f");
      names.add("nd");
      assertEquals(Set.of(), slots.names(l.dirPath()), "nothing shows before the publish");
      PublishResult r = t.publish(true);
      assertEquals(0, r.getRejectedCount(), r.toString());
      assertEquals(10, r.getIngested(), r.toString());
    }
    assertEquals(names, slots.names(l.dirPath()));
    assertEquals(Set.of("f"), slots.names(l.dirPath() + "/nd"));
    long[] expected = new long[BulkSlots.SLOTS];
    expected[l.dir().getZerothSlot()] = 9;
    assertEquals(Arrays.toString(expected), Arrays.toString(slots.entriesBySlot(l.dir().getInodeId())),
        "every entry on the directory's home");
    assertEquals(1, slots.reader.getFileStatus(l.dirPath() + "/new-3").getLength());
    assertTrue(slots.noPendingPublish());
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void entriesRefusedInADirectoryInAnotherPartitionAreReportedByNameAndLeaveNothing() throws Exception {
    // Owned by the admin, 0755: the holder (another user) may not write there.
    Layout l = layout("/rsperm", 0755);
    Set<String> refused = new TreeSet<>();
    long ndId;
    try (IndexFsClient holder = BulkPublishTest.client(slots.cluster, "bob", "holder-rsperm")) {
      BulkInsertion bulk = slots.bulk(holder);
      LocalSubtree t = bulk.localize(l.root(), 0777, false);
      file(t, l.root() + "/top");
      for (int i = 0; i < 3; i++) {
        file(t, l.dirPath() + "/mine-" + i);
        refused.add(l.dirPath() + "/mine-" + i);
      }
      t.mkdirs(l.dirPath() + "/nd", 0755);
      ndId = t.getFileStatus(l.dirPath() + "/nd").getInodeId();
      file(t, l.dirPath() + "/nd/f");
      refused.addAll(List.of(l.dirPath() + "/nd", l.dirPath() + "/nd/f"));
      PublishResult r = t.publish(true);
      Set<String> rejected = r.getRejectedList().stream().map(Rejection::getPath).collect(Collectors.toSet());
      assertEquals(refused, rejected, r.toString());
      for (Rejection x : r.getRejectedList()) {
        assertEquals(Code.ACCESS_DENIED, x.getCode(), x.toString());
      }
      assertEquals(1, r.getIngested(), r.toString());
    }
    assertTrue(slots.names(l.root()).contains("top"));
    assertEquals(Set.of(), slots.names(l.dirPath()));
    for (int slot = 0; slot < BulkSlots.SLOTS; slot++) {
      assertEquals(0, Slots.entriesOn(slots.cluster, slot, l.dir().getInodeId()), "nothing in the directory on " + slot);
      assertEquals(0, Slots.entriesOn(slots.cluster, slot, ndId), "nothing of the refused directory on " + slot);
    }
    assertTrue(slots.noPendingPublish());
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void directoriesBelowAPartitionElsewhereTakeNoSplitUntilTheRelease() throws Exception {
    Layout l = layout("/rssplit", 0777);
    // Homed on the root's own slot, its entry in the directory homed on the third slot.
    String below = dirOn(l.dirPath(), l.home());
    long belowId = slots.admin.getFileStatus(below).getInodeId();
    assertEquals(Set.of(l.dir().getZerothSlot()), slots.slotsHolding(l.dir().getInodeId()), "not split before");
    long dirEntries = Slots.entriesOn(slots.cluster, l.dir().getZerothSlot(), l.dir().getInodeId());
    try (IndexFsClient holder = BulkPublishTest.client(slots.cluster, TestData.USER, "holder-rssplit")) {
      BulkInsertion bulk = slots.bulk(holder);
      bulk.localize(l.root(), 0777, false);
      // The holder's own creates through the servers push both past the threshold.
      for (int i = 0; i < 50; i++) {
        TestData.createClosed(holder, l.dirPath() + "/more-" + i);
        TestData.createClosed(holder, below + "/more-" + i);
      }
      Thread.sleep(2_000); // a split, were it allowed, starts within this
      assertEquals(Set.of(l.dir().getZerothSlot()), slots.slotsHolding(l.dir().getInodeId()),
          "no split of the directory while localized: " + Arrays.toString(slots.entriesBySlot(l.dir().getInodeId())));
      assertEquals(Set.of(l.home()), slots.slotsHolding(belowId),
          "no split of the one below while localized: " + Arrays.toString(slots.entriesBySlot(belowId)));
      bulk.publish(l.root(), true);
    }
    // Released: both split as usual.
    slots.awaitSettled(l.dir().getInodeId(), 2, dirEntries + 50);
    slots.awaitSettled(belowId, 2, 50);
    assertEquals(50, slots.names(below).size());
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void aDirectoryBelowStaysHeldAcrossARestartOfTheLocalizedDirectorysSlot() throws Exception {
    Layout l = layout("/rsdur", 0777);
    String below = dirOn(l.dirPath(), l.home());
    long belowId = slots.admin.getFileStatus(below).getInodeId();
    try (IndexFsClient holder = BulkPublishTest.client(slots.cluster, TestData.USER, "holder-rsdur")) {
      BulkInsertion bulk = slots.bulk(holder);
      bulk.localize(l.root(), 0777, false);
      slots.cluster.restartServer(l.home());
      for (int i = 0; i < 50; i++) {
        TestData.createClosed(holder, below + "/more-" + i);
      }
      Thread.sleep(2_000); // a split, were it allowed, starts within this
      assertEquals(Set.of(l.home()), slots.slotsHolding(belowId),
          "no split while localized: " + Arrays.toString(slots.entriesBySlot(belowId)));
      bulk.publish(l.root(), true);
    }
    slots.awaitSettled(belowId, 2, 50);
    assertEquals(50, slots.names(below).size());
  }
}
