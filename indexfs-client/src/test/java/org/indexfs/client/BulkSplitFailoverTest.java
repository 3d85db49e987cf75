package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.indexfs.client.bulk.BulkInsertion;
import org.indexfs.client.bulk.LocalSubtree;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.PublishResult;
import org.indexfs.server.FaultPoints;
import org.indexfs.server.SlotRunner;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A publish into a directory split across slots, with a failover between its two phases: the
 * standby knows the staged share (or the home's decided part) only from the journal, and finds its
 * files' copies on the data tier. Readers then see all of the publish, each name once.
 */
class BulkSplitFailoverTest {
  private static final int FILES = 300;

  @TempDir
  static Path workDir;
  static LocalCluster cluster;
  static int standbys = 1;

  @BeforeAll
  static void start() throws IOException {
    startJournaled(workDir, "bulksplitfo");
    cluster = BulkSplitPublishTest.cluster;
  }

  /**
   * {@link BulkSplitPublishTest}'s four slots (its helpers run on them), journaled so a standby can
   * follow a slot, with a short ZooKeeper session so a stopped active's slot is taken over soon.
   */
  static void startJournaled(Path workDir, String name) throws IOException {
    BulkSplitPublishTest.use(BulkSlots.start(workDir, name, java.util.Map.of(
        IndexFsConfig.JOURNAL_ENABLED.name(), "true",
        IndexFsConfig.ZOOKEEPER_SESSION_TIMEOUT_MS.name(), "3000",
        IndexFsConfig.SPLIT_THRESHOLD.name(), "40",
        IndexFsConfig.LOCALIZE_LEASE_MS.name(), "60000")));
  }

  @AfterAll
  static void stop() {
    BulkSplitPublishTest.stop();
  }

  @AfterEach
  void noHook() {
    FaultPoints.install(null);
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void aParticipantFailingOverBetweenPrepareAndCommitIngestsItsShareOnTheStandby() throws Exception {
    FileStatus dir = BulkSplitPublishTest.splitDirectory("/fo-part");
    int home = dir.getZerothSlot();
    int participant = BulkSplitPublishTest.slotsHolding(dir.getInodeId()).stream().filter(s -> s != home)
        .findFirst().orElseThrow();
    SlotRunner standby = cluster.startStandby(participant, standbys++);
    try (IndexFsClient holder = BulkPublishTest.client(cluster, TestData.USER, "holder-fp")) {
      BulkInsertion bulk = BulkSplitPublishTest.bulk(holder);
      LocalSubtree t = bulk.localize("/fo-part", 0777, false);
      Set<String> expected = new TreeSet<>(BulkSplitPublishTest.pre());
      expected.addAll(BulkSplitPublishTest.made(t, "/fo-part", "new-", FILES));
      AtomicBoolean fired = new AtomicBoolean();
      FaultPoints.install(p -> {
        if (p.equals("publish.prepared") && fired.compareAndSet(false, true)) {
          try {
            StandbyCatchUpTest.awaitCaughtUp(cluster, participant, standby);
            System.out.printf("participant slot %d: the standby serves %.1f s after its active stopped%n", participant,
                StandbyCatchUpTest.failOver(cluster, participant, standby));
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }
      });
      PublishResult r = bulk.publish("/fo-part", true);
      assertTrue(fired.get());
      assertEquals(0, r.getRejectedCount(), r.toString());
      assertEquals(FILES, r.getIngested());
      assertEquals(expected, new TreeSet<>(BulkSplitPublishTest.listed("/fo-part")));
      assertEquals(200 + FILES, BulkSplitPublishTest.entriesEverywhere(dir.getInodeId()));
    }
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void aHomeFailingOverAfterItsDecisionPublishesEverythingFromTheStandby() throws Exception {
    FileStatus dir = BulkSplitPublishTest.splitDirectory("/fo-home");
    int home = dir.getZerothSlot();
    SlotRunner standby = cluster.startStandby(home, standbys++);
    try (IndexFsClient holder = BulkPublishTest.client(cluster, TestData.USER, "holder-fh")) {
      BulkInsertion bulk = BulkSplitPublishTest.bulk(holder);
      LocalSubtree t = bulk.localize("/fo-home", 0777, false);
      Set<String> expected = new TreeSet<>(BulkSplitPublishTest.pre());
      expected.addAll(BulkSplitPublishTest.made(t, "/fo-home", "new-", FILES));
      StandbyCatchUpTest.awaitCaughtUp(cluster, home, standby);
      BulkSplitPublishTest.publishStoppedAt(t, "publish.staged");
      System.out.printf("home slot %d: the standby serves %.1f s after its active stopped%n", home,
          StandbyCatchUpTest.failOver(cluster, home, standby));
      BulkSplitPublishTest.slots.awaitEntries(dir.getInodeId(), 200 + FILES,
          "the standby ingests the decided publish and settles it");
      assertEquals(200 + FILES, BulkSplitPublishTest.entriesEverywhere(dir.getInodeId()));
      assertEquals(expected, new TreeSet<>(BulkSplitPublishTest.listed("/fo-home")));
    }
  }
}
