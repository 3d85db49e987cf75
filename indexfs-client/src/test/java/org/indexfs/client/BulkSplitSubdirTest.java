package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
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
 * Bulk insertion into a localized subtree holding a subdirectory that had split across slots
 * (GIGA+) before the localization, on four slots with split threshold 40: every partition's slot
 * of it holds off other clients and takes no split (also after a restart) until the lease ends,
 * and a publish puts each entry on the slot of the partition its name hashes to, with the rest or
 * not at all.
 */
class BulkSplitSubdirTest {
  private static final int SLOTS = BulkSlots.SLOTS;
  /** Filled with this many files, a directory splits once (threshold 40): two partitions, each under 40. */
  private static final int PRE = 60;

  @TempDir
  static Path workDir;
  static BulkSlots slots;

  @BeforeAll
  static void start() throws IOException {
    // Renewed every 1.7 s: a loaded machine's late renewal must not end it.
    slots = BulkSlots.start(workDir, "bulksplitsub", Map.of(IndexFsConfig.SPLIT_THRESHOLD.name(), "40",
        IndexFsConfig.LOCALIZE_LEASE_MS.name(), "5000"));
  }

  @AfterAll
  static void stop() {
    slots.close();
  }

  /** {@code path} made (owned by the admin, {@code mode}), filled with {@link #PRE} files and split over two slots. */
  static FileStatus splitSubdir(String path, int mode) throws Exception {
    slots.admin.setPermission(path, mode);
    for (int i = 0; i < PRE; i++) {
      TestData.createClosed(slots.admin, path + "/pre-" + i);
    }
    FileStatus s = slots.admin.getFileStatus(path);
    slots.awaitSettled(s.getInodeId(), 2, PRE);
    assertEquals(2, slots.slotsHolding(s.getInodeId()).size(), "split once");
    return s;
  }

  /** The slot holding {@code name} in {@code dir}, from the partitions as the slots hold them. */
  static int slotOf(FileStatus dir, String name) {
    PartitionBitmap b = PartitionBitmap.initial();
    for (int slot : slots.slotsHolding(dir.getInodeId())) {
      b.add(Math.floorMod(slot - dir.getZerothSlot(), SLOTS));
    }
    return GigaIndex.slotOf(dir.getZerothSlot(), GigaIndex.partitionOf(NameHash.of(name), b), SLOTS);
  }

  /** One name per slot holding a partition of {@code dir}: {@code prefix} + the first i landing there. */
  static Map<Integer, String> onePerPartition(FileStatus dir, String prefix) {
    Map<Integer, String> out = new LinkedHashMap<>();
    Set<Integer> holding = slots.slotsHolding(dir.getInodeId());
    for (int i = 0; out.size() < holding.size(); i++) {
      out.putIfAbsent(slotOf(dir, prefix + i), prefix + i);
    }
    assertEquals(holding, out.keySet());
    return out;
  }

  static Set<String> pre() {
    Set<String> out = new TreeSet<>();
    for (int i = 0; i < PRE; i++) {
      out.add("pre-" + i);
    }
    return out;
  }

  static void file(LocalSubtree t, String path) throws IOException {
    t.complete(t.create(path, 0644, false, 1, 1 << 20).status().getInodeId(), 1, new byte[] {7}, null);
  }

  /**
   * A subdirectory of {@code root} split over two slots neither of which is the root's home (which
   * holds the localization's own record): partitions 0 and 1 on the root's home + 2 and + 3.
   */
  static FileStatus splitAway(String root, String prefix, int mode) throws Exception {
    int home = slots.admin.getFileStatus(root).getZerothSlot();
    FileStatus d = splitSubdir(awayFrom(root, prefix, home), mode);
    assertFalse(slots.slotsHolding(d.getInodeId()).contains(home));
    return d;
  }

  /** A new directory of {@code root} homed on {@code home} + 1 or + 2 (by load): its partitions 0 and 1 miss {@code home}. */
  static String awayFrom(String root, String prefix, int home) throws IOException {
    for (int i = 0; i < 500; i++) {
      String path = root + "/" + prefix + i;
      slots.admin.mkdirs(path, 0777);
      int zeroth = slots.admin.getFileStatus(path).getZerothSlot();
      if (zeroth == (home + 1) % SLOTS || zeroth == (home + 2) % SLOTS) {
        return path;
      }
    }
    throw new AssertionError("placement never chose slot " + (home + 1) % SLOTS + " or " + (home + 2) % SLOTS);
  }

  /** A split subdirectory homed on the root's slot, and one whose partitions are both on other slots. */
  static List<FileStatus> twoSplitSubdirs(String root) throws Exception {
    slots.admin.mkdirs(root, 0777);
    int home = slots.admin.getFileStatus(root).getZerothSlot();
    String here = Slots.dirOn(slots.admin, root, "h", home);
    return List.of(splitSubdir(here, 0777), splitAway(root, "w", 0777));
  }

  static String path(String root, FileStatus dir) {
    return root + "/" + dir.getName();
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void othersCreatesInEveryPartitionOfASplitSubdirectoryAreHeldOffUntilTheRelease() throws Exception {
    List<FileStatus> dirs = twoSplitSubdirs("/held");
    try (IndexFsClient holder = BulkPublishTest.client(slots.cluster, TestData.USER, "holder-held")) {
      BulkInsertion bulk = slots.bulk(holder);
      LocalSubtree t = bulk.localize("/held", 0777, false);
      for (FileStatus d : dirs) {
        for (String name : onePerPartition(d, "x-").values()) {
          slots.refused(path("/held", d) + "/" + name);
        }
        for (String name : onePerPartition(d, "d-").values()) {
          IndexFsException e = assertThrows(IndexFsException.class,
              () -> slots.reader.mkdirs(path("/held", d) + "/" + name, 0755));
          assertEquals(Code.SUBTREE_LOCALIZED, e.code(), e.getMessage());
        }
        // Reads are answered: they see the last publish.
        assertEquals(pre(), slots.names(path("/held", d)));
      }
      t.publish(true);
    }
    // Released: every partition is an ordinary one again.
    for (FileStatus d : dirs) {
      Set<String> expected = new TreeSet<>(pre());
      for (String name : onePerPartition(d, "x-").values()) {
        TestData.createClosed(slots.reader, path("/held", d) + "/" + name);
        expected.add(name);
      }
      assertEquals(expected, slots.names(path("/held", d)));
    }
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void aPublishLandsOnEveryPartitionsSlotAndListsEachNameOnce() throws Exception {
    List<FileStatus> dirs = twoSplitSubdirs("/pub");
    Map<Long, long[]> expectedBySlot = new LinkedHashMap<>();
    Map<Long, Set<String>> expectedNames = new LinkedHashMap<>();
    try (IndexFsClient holder = BulkPublishTest.client(slots.cluster, TestData.USER, "holder-pub")) {
      BulkInsertion bulk = slots.bulk(holder);
      LocalSubtree t = bulk.localize("/pub", 0777, false);
      file(t, "/pub/top");
      long ingested = 1;
      for (FileStatus d : dirs) {
        long[] bySlot = slots.entriesBySlot(d.getInodeId());
        Set<String> names = new TreeSet<>(pre());
        // Eight names: a few land in each partition (they stay under the threshold: no split after).
        for (int i = 0; i < 8; i++) {
          file(t, path("/pub", d) + "/new-" + i);
          bySlot[slotOf(d, "new-" + i)]++;
          names.add("new-" + i);
        }
        t.mkdirs(path("/pub", d) + "/nd", 0755);
        file(t, path("/pub", d) + "/nd/f");
        bySlot[slotOf(d, "nd")]++;
        names.add("nd");
        ingested += 10;
        expectedBySlot.put(d.getInodeId(), bySlot);
        expectedNames.put(d.getInodeId(), names);
        Set<Integer> landing = new TreeSet<>();
        for (int i = 0; i < 8; i++) {
          landing.add(slotOf(d, "new-" + i));
        }
        assertEquals(slots.slotsHolding(d.getInodeId()), landing, "the new names land in every partition");
      }
      // Nothing shows before the publish.
      for (FileStatus d : dirs) {
        assertEquals(pre(), slots.names(path("/pub", d)));
      }
      PublishResult r = t.publish(true);
      assertEquals(0, r.getRejectedCount(), r.toString());
      assertEquals(ingested, r.getIngested(), r.toString());
    }
    assertTrue(slots.names("/pub").contains("top"));
    for (FileStatus d : dirs) {
      String p = path("/pub", d);
      assertEquals(expectedNames.get(d.getInodeId()), slots.names(p), p);
      assertEquals(Arrays.toString(expectedBySlot.get(d.getInodeId())),
          Arrays.toString(slots.entriesBySlot(d.getInodeId())), "each entry on its partition's slot: " + p);
      assertEquals(Set.of("f"), slots.names(p + "/nd"));
      for (int i = 0; i < 8; i++) {
        assertEquals(1, slots.reader.getFileStatus(p + "/new-" + i).getLength());
      }
      // Released on every partition's slot.
      for (String name : onePerPartition(d, "after-").values()) {
        TestData.createClosed(slots.reader, p + "/" + name);
      }
    }
    assertTrue(slots.noPendingPublish());
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void entriesRefusedInAnotherPartitionAreReportedByNameAndLeaveNothing() throws Exception {
    slots.admin.mkdirs("/perm", 0777);
    FileStatus ok = splitAway("/perm", "ok", 0777);
    // The holder (another user) may not write here; every partition's slot has that mode.
    FileStatus ro = splitAway("/perm", "ro", 0755);
    String okPath = "/perm/" + ok.getName();
    String roPath = "/perm/" + ro.getName();
    long[] okBefore = slots.entriesBySlot(ok.getInodeId());
    long[] roBefore = slots.entriesBySlot(ro.getInodeId());
    Set<String> refused = new TreeSet<>();
    Set<String> okNames = new TreeSet<>(pre());
    try (IndexFsClient holder = BulkPublishTest.client(slots.cluster, "bob", "holder-perm")) {
      BulkInsertion bulk = slots.bulk(holder);
      LocalSubtree t = bulk.localize("/perm", 0777, false);
      for (Map.Entry<Integer, String> e : onePerPartition(ok, "mine-").entrySet()) {
        file(t, okPath + "/" + e.getValue());
        okBefore[e.getKey()]++;
        okNames.add(e.getValue());
      }
      for (String name : onePerPartition(ro, "mine-").values()) {
        file(t, roPath + "/" + name);
        refused.add(roPath + "/" + name);
      }
      // A new directory whose entry falls in the partition away from the directory's home.
      String nd = onePerPartition(ro, "nd-").get((ro.getZerothSlot() + 1) % SLOTS);
      t.mkdirs(roPath + "/" + nd, 0755);
      long ndId = t.getFileStatus(roPath + "/" + nd).getInodeId();
      file(t, roPath + "/" + nd + "/f");
      refused.addAll(List.of(roPath + "/" + nd, roPath + "/" + nd + "/f"));
      PublishResult r = t.publish(true);
      Set<String> rejected = r.getRejectedList().stream().map(Rejection::getPath).collect(Collectors.toSet());
      assertEquals(refused, rejected, r.toString());
      for (Rejection x : r.getRejectedList()) {
        assertEquals(Code.ACCESS_DENIED, x.getCode(), x.toString());
      }
      assertEquals(2, r.getIngested(), r.toString());
      for (int slot = 0; slot < SLOTS; slot++) {
        assertEquals(0, Slots.entriesOn(slots.cluster, slot, ndId), "nothing of the refused directory on slot " + slot);
      }
    }
    assertEquals(Arrays.toString(roBefore), Arrays.toString(slots.entriesBySlot(ro.getInodeId())));
    assertEquals(pre(), slots.names(roPath));
    assertEquals(Arrays.toString(okBefore), Arrays.toString(slots.entriesBySlot(ok.getInodeId())));
    assertEquals(okNames, slots.names(okPath));
    assertTrue(slots.noPendingPublish());
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void aLeaseRunningOutLeavesNothingAndLiftsTheHoldOnEveryPartition() throws Exception {
    slots.admin.mkdirs("/expiring", 0777);
    FileStatus d = splitAway("/expiring", "w", 0777);
    String p = "/expiring/" + d.getName();
    long[] before = slots.entriesBySlot(d.getInodeId());
    try (IndexFsClient holder = BulkPublishTest.client(slots.cluster, TestData.USER, "holder-exp")) {
      BulkInsertion bulk = slots.bulk(holder);
      LocalSubtree t = bulk.localize("/expiring", 0777, false);
      file(t, "/expiring/top");
      for (String name : onePerPartition(d, "mine-").values()) {
        file(t, p + "/" + name);
      }
      Map<Integer, String> late = onePerPartition(d, "late-");
      for (String name : late.values()) {
        slots.refused(p + "/" + name);
      }
      bulk.stopRenewing();
      Thread.sleep(6_500);
      assertEquals(Arrays.toString(before), Arrays.toString(slots.entriesBySlot(d.getInodeId())));
      assertEquals(pre(), slots.names(p));
      assertFalse(slots.names("/expiring").contains("top"));
      // The hold is lifted on every partition's slot.
      Set<String> expected = new TreeSet<>(pre());
      for (String name : late.values()) {
        TestData.createClosed(slots.reader, p + "/" + name);
        expected.add(name);
      }
      assertEquals(Code.LEASE_EXPIRED, assertThrows(IndexFsException.class, () -> t.publish(true)).code());
      assertEquals(expected, slots.names(p));
    }
    assertTrue(slots.noPendingPublish());
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void aPartitionsSlotRestartedMidLeaseStillHoldsItsSplitUntilTheRelease() throws Exception {
    slots.admin.mkdirs("/durable", 0777);
    int home = slots.admin.getFileStatus("/durable").getZerothSlot();
    // Partitions 0 and 1 on two slots other than the root's home.
    String path = awayFrom("/durable", "b", home);
    FileStatus d = splitSubdir(path, 0777);
    int mirror = (d.getZerothSlot() + 1) % SLOTS;
    assertEquals(Set.of(d.getZerothSlot(), mirror), slots.slotsHolding(d.getInodeId()));
    try (IndexFsClient holder = BulkPublishTest.client(slots.cluster, TestData.USER, "holder-durable")) {
      BulkInsertion bulk = slots.bulk(holder);
      bulk.localize("/durable", 0777, false);
      slots.cluster.restartServer(mirror);
      // The holder's own creates through the servers push both partitions past the threshold.
      for (int i = 0; i < 50; i++) {
        TestData.createClosed(holder, path + "/more-" + i);
      }
      Thread.sleep(2_000); // a split, were it allowed, starts within this
      assertEquals(Set.of(d.getZerothSlot(), mirror), slots.slotsHolding(d.getInodeId()),
          "no split while localized: " + Arrays.toString(slots.entriesBySlot(d.getInodeId())));
      bulk.publish("/durable", true);
    }
    // Released: the partitions split as usual.
    slots.awaitSettled(d.getInodeId(), 3, PRE + 50);
    assertEquals(PRE + 50, slots.names(path).size());
  }
}
