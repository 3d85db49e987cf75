package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.indexfs.client.bulk.BulkInsertion;
import org.indexfs.client.bulk.LocalSubtree;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.rpc.RpcConnection;
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
    BulkSplitPublishTest.use(BulkSlots.start(workDir, "bulksplitcrash", java.util.Map.of(
        IndexFsConfig.JOURNAL_ENABLED.name(), "true",
        IndexFsConfig.ZOOKEEPER_SESSION_TIMEOUT_MS.name(), "3000",
        IndexFsConfig.SPLIT_THRESHOLD.name(), "40",
        IndexFsConfig.LOCALIZE_LEASE_MS.name(), "60000")));
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
        awaitCaughtUp(home, standby);
      }

      List<String> points = new CopyOnWriteArrayList<>();
      AtomicBoolean fired = new AtomicBoolean();
      FaultPoints.install(p -> {
        points.add(p);
        if (p.equals(point) && points.contains("publish.received") && fired.compareAndSet(false, true)) {
          throw new IllegalStateException("injected stop at " + p);
        }
      });
      long id = RpcConnection.newCallId();
      b.reuseCallId(id);
      assertThrows(IOException.class, () -> tb.publish(true));
      assertTrue(fired.get(), "the publish reached " + point + ": " + points);
      FaultPoints.install(null);
      if (standby != null) {
        StandbyCatchUpTest.failOver(cluster, home, standby);
      } else {
        cluster.restartServer(home);
      }

      List<String> again = new CopyOnWriteArrayList<>();
      FaultPoints.install(again::add);
      PublishResult r = resend(b, tb, id);
      FaultPoints.install(null);
      assertEquals(FILES, r.getIngested(), r.toString());
      Set<String> refused = r.getRejectedList().stream().filter(x -> x.getCode() != Code.OK)
          .map(Rejection::getPath).collect(Collectors.toSet());
      assertEquals(dups.stream().map(n -> dir + "/" + n).collect(Collectors.toSet()), refused,
          "every slot's refusals (holder-a's names win): " + r);
      assertEquals(landed ? 0 : 1, again.stream().filter("publish.committed"::equals).count(),
          (landed ? "answered without running again: " : "run again, once: ") + again);
      assertEquals(landed ? 0 : 1, again.stream().filter("publish.received"::equals).count(), again.toString());

      long deadline = System.currentTimeMillis() + 60_000;
      while (BulkSplitPublishTest.entriesEverywhere(s.getInodeId()) < 200 + DUPS + FILES) {
        assertTrue(System.currentTimeMillis() < deadline, "the decided publish is settled on every slot");
        Thread.sleep(200);
      }
      assertEquals(expected, new TreeSet<>(BulkSplitPublishTest.listed(dir)));
      assertEquals(200 + DUPS + FILES, BulkSplitPublishTest.entriesEverywhere(s.getInodeId()));
      bulkA.publish(dir, true);
    }
  }

  static void awaitCaughtUp(int slot, SlotRunner standby) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (standby.standby() == null
        || !standby.standby().position().equals(cluster.server(slot).namespace().store().position())) {
      assertTrue(System.nanoTime() < deadline, "the standby catches up within 3 minutes");
      Thread.sleep(50);
    }
  }

  /** The publish sent again under call {@code id}, while the directory is still held by a settling publish. */
  private static PublishResult resend(IndexFsClient c, LocalSubtree t, long id) throws Exception {
    long deadline = System.currentTimeMillis() + 60_000;
    while (true) {
      c.reuseCallId(id);
      try {
        return t.publish(true);
      } catch (IndexFsException e) {
        if (e.code() != Code.STALE_RESOLUTION || System.currentTimeMillis() > deadline) {
          throw e;
        }
        Thread.sleep(200);
      }
    }
  }
}
