package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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
 * Bulk insertion into a directory that has split across slots (GIGA+), on four slots: the
 * localization is known on every slot holding a partition (others' mutations there are refused),
 * a publish is split by partition and ingested by every partition's slot at once, two-phase, and a
 * participant or the home stopped between the phases ends all or nothing.
 */
class BulkSplitPublishTest {
  private static final int SLOTS = BulkSlots.SLOTS;
  private static final int FILES = 300;

  @TempDir
  static Path workDir;
  static BulkSlots slots;
  static LocalCluster cluster;
  static IndexFsClient admin;
  static IndexFsClient reader;

  @BeforeAll
  static void start() throws IOException {
    use(BulkSlots.start(workDir, "bulksplitpub", Map.of(IndexFsConfig.SPLIT_THRESHOLD.name(), "40",
        IndexFsConfig.LOCALIZE_LEASE_MS.name(), "60000")));
  }

  /** This class's helpers run on {@code s} (BulkSplitFailoverTest's cluster uses them too). */
  static void use(BulkSlots s) {
    slots = s;
    cluster = s.cluster;
    admin = s.admin;
    reader = s.reader;
  }

  @AfterAll
  static void stop() {
    slots.close();
  }

  @AfterEach
  void noHook() {
    FaultPoints.install(null);
  }

  /** Makes {@code dir} with 200 files and waits until it has split over at least two slots and settled. */
  static FileStatus splitDirectory(String dir) throws Exception {
    admin.mkdirs(dir, 0777);
    for (int i = 0; i < 200; i++) {
      TestData.createClosed(admin, dir + "/pre-" + i);
    }
    FileStatus s = reader.getFileStatus(dir);
    slots.awaitSettled(s.getInodeId(), 2, 200);
    return s;
  }

  static BulkInsertion bulk(IndexFsClient c) {
    return slots.bulk(c);
  }

  static Set<String> made(LocalSubtree t, String dir, String prefix, int n) throws IOException {
    Set<String> out = new TreeSet<>();
    for (int i = 0; i < n; i++) {
      String name = prefix + i;
      t.complete(t.create(dir + "/" + name, 0644, false, 1, 1 << 20).status().getInodeId(), 1, new byte[] {7}, null);
      out.add(name);
    }
    return out;
  }

  static Set<String> pre() {
    Set<String> out = new TreeSet<>();
    for (int i = 0; i < 200; i++) {
      out.add("pre-" + i);
    }
    return out;
  }

  /** Every name once, in HDFS order (bytes compared signed), as another client lists it. */
  static List<String> listed(String dir) throws IOException {
    List<String> names = reader.listAll(dir).stream().map(FileStatus::getName).collect(Collectors.toList());
    List<String> sorted = new ArrayList<>(names);
    sorted.sort((x, y) -> java.util.Arrays.compare(x.getBytes(StandardCharsets.UTF_8), y.getBytes(StandardCharsets.UTF_8)));
    assertEquals(sorted, names, "listed in HDFS order");
    assertEquals(new HashSet<>(names).size(), names.size(), "each name once");
    return names;
  }

  static Set<Integer> slotsHolding(long dirId) {
    return slots.slotsHolding(dirId);
  }

  static long entriesEverywhere(long dirId) {
    long n = 0;
    for (int slot = 0; slot < SLOTS; slot++) {
      n += Slots.entriesOn(cluster, slot, dirId);
    }
    return n;
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void aSplitDirectoryIsLocalizedAndItsPublishAppearsOnEveryPartitionAtOnce() throws Exception {
    FileStatus dir = splitDirectory("/wide");
    Set<Integer> before = slotsHolding(dir.getInodeId());
    try (IndexFsClient holder = BulkPublishTest.client(cluster, TestData.USER, "holder-wide")) {
      BulkInsertion bulk = bulk(holder);
      LocalSubtree t = bulk.localize("/wide", 0777, false);
      Set<String> expected = new TreeSet<>(pre());
      expected.addAll(made(t, "/wide", "new-", FILES));
      t.mkdirs("/wide/sub", 0755);
      expected.add("sub");
      Set<String> inSub = made(t, "/wide/sub", "s", 5);

      // Another client: sees the last publish only, and may change nothing in any partition.
      assertEquals(pre(), new TreeSet<>(listed("/wide")));
      int refused = 0;
      for (int i = 0; i < 16; i++) {
        String path = "/wide/other-" + i;
        IndexFsException e = assertThrows(IndexFsException.class, () -> TestData.createClosed(reader, path));
        assertEquals(Code.SUBTREE_LOCALIZED, e.code(), path + ": " + e.getMessage());
        refused++;
      }
      assertEquals(16, refused);
      // A client that waits for the subtree (the default) gets its create in once it is published.
      java.util.concurrent.CompletableFuture<Void> waiter = java.util.concurrent.CompletableFuture.runAsync(() -> {
        try (IndexFsClient patient = BulkPublishTest.client(cluster, "reader", "patient")) {
          TestData.createClosed(patient, "/wide/waiter");
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      Thread.sleep(500);
      assertFalse(waiter.isDone(), "held off while localized");

      PublishResult r = bulk.publish("/wide", true);
      assertEquals(0, r.getRejectedCount(), r.toString());
      assertEquals(FILES + 1 + 5, r.getIngested());
      waiter.get(30, TimeUnit.SECONDS);
      expected.add("waiter");
      assertEquals(expected, new TreeSet<>(listed("/wide")));
      assertEquals(inSub, new TreeSet<>(listed("/wide/sub")));
      assertEquals(200 + FILES + 2, entriesEverywhere(dir.getInodeId()), "every entry once, on the slots");
      assertEquals(before, slotsHolding(dir.getInodeId()), "the partitions took their shares; none moved");
      for (int i = 0; i < FILES; i += 29) {
        assertEquals(1, reader.getFileStatus("/wide/new-" + i).getLength());
      }
    }
    // Released: an ordinary directory again on every slot.
    TestData.createClosed(reader, "/wide/after");
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void sharedConflictsOnASplitDirectoryAreReportedByNameAndResolvedOnce() throws Exception {
    splitDirectory("/shared");
    try (IndexFsClient a = BulkPublishTest.client(cluster, TestData.USER, "holder-a");
        IndexFsClient b = BulkPublishTest.client(cluster, TestData.USER, "holder-b")) {
      BulkInsertion bulkA = bulk(a);
      BulkInsertion bulkB = bulk(b);
      LocalSubtree ta = bulkA.localize("/shared", 0777, true);
      LocalSubtree tb = bulkB.localize("/shared", 0777, true);
      Set<String> dup = made(ta, "/shared", "dup-", 60);
      made(tb, "/shared", "dup-", 60);
      Set<String> onlyB = made(tb, "/shared", "b-", 40);
      // Directories of one name from both: b's merges into a's where a's is in the home's partition;
      // elsewhere b's is refused with what it holds (no merge across slots), reported.
      for (int d = 0; d < 12; d++) {
        ta.mkdirs("/shared/dir-" + d, 0755);
        tb.mkdirs("/shared/dir-" + d, 0755);
        made(tb, "/shared/dir-" + d, "in-b-", 3);
      }
      assertEquals(0, bulkA.publish("/shared", false).getRejectedCount());
      PublishResult rb = bulkB.publish("/shared", true);
      bulkA.publish("/shared", true);

      Set<String> rejected = rb.getRejectedList().stream().filter(x -> x.getCode() != Code.OK)
          .map(Rejection::getPath).collect(Collectors.toSet());
      for (String name : dup) {
        assertTrue(rejected.contains("/shared/" + name), name + " (client holder-a wins) is reported: " + rb);
      }
      for (Rejection x : rb.getRejectedList()) {
        if (x.getPath().startsWith("/shared/dup-")) {
          assertTrue(x.getReason().contains("lowest client id wins"), x.toString());
        }
      }
      Set<String> expected = new TreeSet<>(pre());
      expected.addAll(dup);
      expected.addAll(onlyB);
      for (int d = 0; d < 12; d++) {
        expected.add("dir-" + d);
        Set<String> inside = new TreeSet<>(listed("/shared/dir-" + d));
        boolean merged = !inside.isEmpty();
        for (int i = 0; i < 3; i++) {
          String path = "/shared/dir-" + d + "/in-b-" + i;
          assertTrue(merged != rejected.contains(path), path + ": merged or reported, never both nor neither");
        }
      }
      assertEquals(expected, new TreeSet<>(listed("/shared")));
      for (String name : dup) {
        assertEquals(1, reader.getFileStatus("/shared/" + name).getLength());
      }
    }
  }

  /**
   * Another client reading all through a publish across slots never finds one of its names and
   * then misses another: each participant holds its readers from PREPARE, the home from just before
   * its commit point, until every slot has its share in. The publish is held at the home's commit
   * point (its own part in, no participant told) for a second: no read is answered meanwhile.
   */
  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void readersSeeAPublishAcrossSlotsAtOneMoment() throws Exception {
    FileStatus dir = splitDirectory("/moment");
    try (IndexFsClient holder = BulkPublishTest.client(cluster, TestData.USER, "holder-moment");
        IndexFsClient watcher = BulkPublishTest.client(cluster, "reader", "watcher-moment")) {
      watcher.waitForLocalized(0);
      BulkInsertion bulk = bulk(holder);
      LocalSubtree t = bulk.localize("/moment", 0777, false);
      List<String> names = new ArrayList<>(made(t, "/moment", "new-", FILES));
      java.util.concurrent.CountDownLatch paused = new java.util.concurrent.CountDownLatch(1);
      java.util.concurrent.CountDownLatch resume = new java.util.concurrent.CountDownLatch(1);
      FaultPoints.install(p -> {
        if (p.equals("publish.committed") && paused.getCount() > 0) {
          paused.countDown();
          try {
            resume.await(60, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
      });
      // Read after read, round and round the new names: {name's index, found (1) or not (0), when answered}.
      List<long[]> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
      AtomicBoolean stop = new AtomicBoolean();
      java.util.concurrent.CompletableFuture<Void> reads = java.util.concurrent.CompletableFuture.runAsync(() -> {
        for (int i = 0; !stop.get(); i++) {
          int k = i % names.size();
          long found;
          try {
            watcher.getFileStatus("/moment/" + names.get(k));
            found = 1;
          } catch (IndexFsException e) {
            if (e.code() != Code.FILE_NOT_FOUND) {
              throw new IllegalStateException(names.get(k) + ": " + e.getMessage(), e);
            }
            found = 0;
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
          seen.add(new long[] {k, found, System.nanoTime()});
        }
      });
      while (seen.size() < 50) {
        Thread.sleep(10);
      }
      java.util.concurrent.CompletableFuture<PublishResult> publish = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
        try {
          return bulk.publish("/moment", true);
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      assertTrue(paused.await(60, TimeUnit.SECONDS), "the publish reached its commit point");
      Thread.sleep(100); // a read answered before the hold may still be on its way back
      int before = seen.size();
      Thread.sleep(1_000);
      int during = seen.size() - before;
      long resumed = System.nanoTime();
      resume.countDown();
      PublishResult r = publish.get(60, TimeUnit.SECONDS);
      FaultPoints.install(null);
      assertEquals(FILES, r.getIngested(), r.toString());
      int after = seen.size();
      while (seen.size() < after + 2 * names.size()) {
        Thread.sleep(10);
      }
      stop.set(true);
      reads.get(60, TimeUnit.SECONDS);

      int firstFound = -1;
      List<String> missedAfter = new ArrayList<>();
      for (int i = 0; i < seen.size(); i++) {
        long[] x = seen.get(i);
        if (x[1] == 1 && firstFound < 0) {
          firstFound = i;
        } else if (x[1] == 0 && firstFound >= 0) {
          missedAfter.add(names.get((int) x[0]));
        }
      }
      assertTrue(firstFound > 0, "read before and after the publish: " + firstFound);
      assertEquals(List.of(), missedAfter, "names missed after " + names.get((int) seen.get(firstFound)[0])
          + " was found (read " + firstFound + " of " + seen.size() + ")");
      assertEquals(0, during, "no read answered while the home held its part in and no participant had its share");
      assertTrue(seen.get(firstFound)[2] - resumed > 0, "found only after the publish went on");
      assertTrue(slotsHolding(dir.getInodeId()).size() > 1, "the directory spans slots");
    }
  }

  /**
   * The home stops just after its decision (its own part in) while a participant is away: restarted,
   * it holds its readers again from the durable decision until that participant is back and has its
   * share, so no reader finds the home's names while the participant's are missing.
   */
  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void aRestartedHomeHoldsItsReadersUntilAnAwayParticipantHasItsShare() throws Exception {
    FileStatus dir = splitDirectory("/held");
    int home = dir.getZerothSlot();
    // Not slot 0: it homes the root, and with it away no path resolves at all.
    int participant = slotsHolding(dir.getInodeId()).stream().filter(s -> s != home && s != 0).findFirst().orElseThrow();
    try (IndexFsClient holder = BulkPublishTest.client(cluster, TestData.USER, "holder-held");
        IndexFsClient watcher = BulkPublishTest.client(cluster, "reader", "watcher-held")) {
      watcher.waitForLocalized(0);
      BulkInsertion bulk = bulk(holder);
      LocalSubtree t = bulk.localize("/held", 0777, false);
      Set<String> expected = new TreeSet<>(pre());
      Set<String> made = made(t, "/held", "new-", FILES);
      expected.addAll(made);
      AtomicBoolean fired = new AtomicBoolean();
      FaultPoints.install(p -> {
        if (p.equals("publish.committed") && fired.compareAndSet(false, true)) {
          cluster.stopServer(participant);
          throw new IllegalStateException("injected stop at " + p);
        }
      });
      assertThrows(IOException.class, () -> t.publish(false));
      FaultPoints.install(null);
      assertTrue(fired.get(), "the publish reached its decision");
      cluster.restartServer(home);

      String onHome = null;
      for (String name : made) {
        if (cluster.server(home).namespace().lookup(dir.getInodeId(), name) != null) {
          onHome = name;
          break;
        }
      }
      assertTrue(onHome != null, "the home ingested its part with the decision");
      String path = "/held/" + onHome;
      java.util.concurrent.CompletableFuture<FileStatus> stat = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
        try {
          return watcher.getFileStatus(path);
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      Thread.sleep(1_500);
      assertFalse(stat.isDone(), "a read of " + path + " waits while slot " + participant + " lacks its share: "
          + (stat.isDone() ? stat.join() : ""));
      cluster.restartServer(participant);
      assertEquals(1, stat.get(60, TimeUnit.SECONDS).getLength(), "answered once the participant has its share");
      awaitNoPendingShares(dir.getInodeId());
      assertEquals(expected, new TreeSet<>(listed("/held")));
      assertEquals(200 + FILES, entriesEverywhere(dir.getInodeId()));
      retry(t);
    }
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void aParticipantRestartedBetweenPrepareAndCommitIngestsItsShare() throws Exception {
    FileStatus dir = splitDirectory("/restart-part");
    int home = dir.getZerothSlot();
    int participant = slotsHolding(dir.getInodeId()).stream().filter(s -> s != home).findFirst().orElseThrow();
    try (IndexFsClient holder = BulkPublishTest.client(cluster, TestData.USER, "holder-rp")) {
      BulkInsertion bulk = bulk(holder);
      LocalSubtree t = bulk.localize("/restart-part", 0777, false);
      Set<String> expected = new TreeSet<>(pre());
      expected.addAll(made(t, "/restart-part", "new-", FILES));
      AtomicBoolean fired = new AtomicBoolean();
      FaultPoints.install(p -> {
        if (p.equals("publish.prepared") && fired.compareAndSet(false, true)) {
          try {
            // Every share is staged; the participant goes down and comes back on its disk.
            cluster.restartServer(participant);
          } catch (IOException e) {
            throw new IllegalStateException(e);
          }
        }
      });
      PublishResult r = bulk.publish("/restart-part", true);
      assertTrue(fired.get());
      assertEquals(FILES, r.getIngested(), r.toString());
      assertEquals(expected, new TreeSet<>(listed("/restart-part")));
      assertEquals(200 + FILES, entriesEverywhere(dir.getInodeId()));
    }
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void aHomeStoppedBeforeItsDecisionPublishesNothingAndTheRetryLandsOnce() throws Exception {
    FileStatus dir = splitDirectory("/undecided");
    int home = dir.getZerothSlot();
    try (IndexFsClient holder = BulkPublishTest.client(cluster, TestData.USER, "holder-ud")) {
      BulkInsertion bulk = bulk(holder);
      LocalSubtree t = bulk.localize("/undecided", 0777, false);
      Set<String> expected = new TreeSet<>(pre());
      expected.addAll(made(t, "/undecided", "new-", FILES));
      publishStoppedAt(t, "publish.prepared");
      cluster.restartServer(home);
      // Every participant drops its staged share (the home aborts what it never decided).
      awaitNoPendingShares(dir.getInodeId());
      assertEquals(pre(), new TreeSet<>(listed("/undecided")));
      assertEquals(200, entriesEverywhere(dir.getInodeId()));

      PublishResult r = retry(t);
      assertEquals(0, r.getRejectedCount(), r.toString());
      assertEquals(expected, new TreeSet<>(listed("/undecided")));
      assertEquals(200 + FILES, entriesEverywhere(dir.getInodeId()));
    }
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void aHomeStoppedAfterItsDecisionPublishesEverythingOnceRestarted() throws Exception {
    FileStatus dir = splitDirectory("/decided");
    int home = dir.getZerothSlot();
    try (IndexFsClient holder = BulkPublishTest.client(cluster, TestData.USER, "holder-d")) {
      BulkInsertion bulk = bulk(holder);
      LocalSubtree t = bulk.localize("/decided", 0777, false);
      Set<String> expected = new TreeSet<>(pre());
      expected.addAll(made(t, "/decided", "new-", FILES));
      publishStoppedAt(t, "publish.staged");
      cluster.restartServer(home);
      // The restarted home ingests its part and tells the participants to ingest theirs.
      awaitNoPendingShares(dir.getInodeId());
      assertEquals(expected, new TreeSet<>(listed("/decided")));
      assertEquals(200 + FILES, entriesEverywhere(dir.getInodeId()));
      PublishResult r = retry(t);
      assertEquals(expected, new TreeSet<>(listed("/decided")), "the retry lands nothing twice: " + r);
      assertEquals(200 + FILES, entriesEverywhere(dir.getInodeId()));
    }
  }

  /** The holder's publish again (with release), while the directory is still held by a settling publish. */
  private static PublishResult retry(LocalSubtree t) throws Exception {
    return PublishAgain.untilAccepted(t, 60_000, Code.STALE_RESOLUTION);
  }

  /** Waits until no slot holds a staged share or an undecided publish of {@code dirId}: another client may create there. */
  private static void awaitNoPendingShares(long dirId) throws Exception {
    long deadline = System.currentTimeMillis() + 60_000;
    while (!settled()) {
      assertTrue(System.currentTimeMillis() < deadline, "the split publish settles");
      Thread.sleep(200);
    }
  }

  /** No slot holds a publish transaction or a staged share. */
  private static boolean settled() {
    return slots.noMetaUnder("bulk.tx/", "bulk.part/");
  }

  /** A publish that an injected failure stops once at {@code point}: it fails, and the fault is removed. */
  static void publishStoppedAt(LocalSubtree t, String point) {
    AtomicBoolean fired = new AtomicBoolean();
    FaultPoints.install(p -> {
      if (p.equals(point) && fired.compareAndSet(false, true)) {
        throw new IllegalStateException("injected stop at " + p);
      }
    });
    try {
      assertThrows(IOException.class, () -> t.publish(false));
    } finally {
      FaultPoints.install(null);
    }
    assertTrue(fired.get(), "the publish reached " + point);
  }
}
