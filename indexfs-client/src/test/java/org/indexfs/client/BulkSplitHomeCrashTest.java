package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.indexfs.client.bulk.BulkInsertion;
import org.indexfs.client.bulk.LocalSubtree;
import org.indexfs.proto.Code;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.PublishResult;
import org.indexfs.proto.Rejection;
import org.indexfs.server.FaultPoints;
import org.indexfs.server.SlotRunner;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A publish into a directory split across slots whose home stops (restart, or failover to its
 * standby) between the decision and the record of its answer: the resend under the same call id
 * gets the whole publish's report (every slot's refusals) without running it again; stopped
 * before the decision, the publish is aborted and the resend lands it once.
 */
class BulkSplitHomeCrashTest {
  private static final int FILES = 60;
  private static final int DUPS = 30;

  @TempDir
  static Path workDir;
  static LocalCluster cluster;
  static int standbys = 1;

  @BeforeAll
  static void start() throws IOException {
    BulkSplitFailoverTest.startJournaled(workDir, "bulksplitcrash");
    cluster = BulkSplitPublishTest.cluster;
  }

  @AfterAll
  static void stop() {
    BulkSplitPublishTest.stop();
  }

  @AfterEach
  void noHook() {
    FaultPoints.install(null);
  }

  @ParameterizedTest(name = "{1} at {0}")
  @CsvSource({"publish.prepared, restart, false", "publish.committed, restart, true", "call.applied, restart, true",
      "publish.committed, failover, true"})
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void aResendAfterTheHomeStoppedGetsTheSplitPublishOnce(String point, String how, boolean landed) throws Exception {
    String dir = "/" + how + "-" + point.replace('.', '-');
    FileStatus s = BulkSplitPublishTest.splitDirectory(dir);
    int home = s.getZerothSlot();
    SlotRunner standby = how.equals("failover") ? cluster.startStandby(home, standbys++) : null;
    try (IndexFsClient a = BulkPublishTest.client(cluster, TestData.USER, "holder-a-" + how + point);
        IndexFsClient b = BulkPublishTest.client(cluster, TestData.USER, "holder-b-" + how + point)) {
      BulkInsertion bulkA = BulkSplitPublishTest.bulk(a);
      BulkInsertion bulkB = BulkSplitPublishTest.bulk(b);
      LocalSubtree ta = bulkA.localize(dir, 0777, true);
      LocalSubtree tb = bulkB.localize(dir, 0777, true);
      Set<String> dups = BulkSplitPublishTest.made(ta, dir, "dup-", DUPS);
      BulkSplitPublishTest.made(tb, dir, "dup-", DUPS);
      Set<String> expected = new TreeSet<>(BulkSplitPublishTest.pre());
      expected.addAll(dups);
      expected.addAll(BulkSplitPublishTest.made(tb, dir, "new-", FILES));
      assertEquals(0, bulkA.publish(dir, false).getRejectedCount());
      if (standby != null) {
        StandbyCatchUpTest.awaitCaughtUp(cluster, home, standby);
      }

      long id = PublishAgain.stoppedAt(point, b, tb, true);
      if (standby != null) {
        StandbyCatchUpTest.failOver(cluster, home, standby);
      } else {
        cluster.restartServer(home);
      }

      List<String> again = new CopyOnWriteArrayList<>();
      // The directory may still be held by the settling publish.
      PublishResult r = PublishAgain.underCallIdOnceSettled(b, tb, id, again);
      assertEquals(FILES, r.getIngested(), r.toString());
      Set<String> refused = r.getRejectedList().stream().filter(x -> x.getCode() != Code.OK)
          .map(Rejection::getPath).collect(Collectors.toSet());
      assertEquals(dups.stream().map(n -> dir + "/" + n).collect(Collectors.toSet()), refused,
          "every slot's refusals (holder-a's names win): " + r);
      assertEquals(landed ? 0 : 1, again.stream().filter("publish.committed"::equals).count(),
          (landed ? "answered without running again: " : "run again, once: ") + again);
      assertEquals(landed ? 0 : 1, again.stream().filter("publish.received"::equals).count(), again.toString());

      BulkSplitPublishTest.slots.awaitEntries(s.getInodeId(), 200 + DUPS + FILES,
          "the decided publish is settled on every slot");
      assertEquals(expected, new TreeSet<>(BulkSplitPublishTest.listed(dir)));
      assertEquals(200 + DUPS + FILES, BulkSplitPublishTest.entriesEverywhere(s.getInodeId()));
      bulkA.publish(dir, true);
    }
  }
}
