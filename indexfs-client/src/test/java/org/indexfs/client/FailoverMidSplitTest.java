package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.proto.FileStatus;
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
 * A GIGA+ split interrupted by a failover (issue 14): the split stops at one of its phases, on the
 * source or on the receiver, that slot's active dies and its standby — which knows the split only
 * from the journal — takes the slot over. The split then finishes exactly once: every name listed
 * once, stored once across the slots, and the directory spread over both.
 */
class FailoverMidSplitTest {
  @TempDir
  static Path workDir;
  static LocalCluster cluster;
  static IndexFsClient admin;
  static int standbys = 1;

  @BeforeAll
  static void start() throws IOException {
    cluster = LocalCluster.builder(workDir).clusterName("midsplit").servers(2)
        .set(IndexFsConfig.JOURNAL_ENABLED.name(), "true")
        .set(IndexFsConfig.ZOOKEEPER_SESSION_TIMEOUT_MS.name(), "3000")
        .set(IndexFsConfig.SPLIT_THRESHOLD.name(), "40")
        .set(IndexFsConfig.HOME_SYNC_INTERVAL_MS.name(), "200").start();
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

  @ParameterizedTest(name = "the {1} fails over at {0}")
  @CsvSource({"split.recorded, source", "split.shipped, source", "split.ingested, source",
      "ingest.received, receiver", "ingest.recorded, receiver"})
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void aSplitInterruptedByAFailoverFinishesExactlyOnce(String point, String side) throws Exception {
    String dir = "/" + point.replace('.', '-') + "-" + side;
    admin.mkdirs(dir, 0755);
    FileStatus st = admin.getFileStatus(dir);
    int home = st.getZerothSlot();
    int failing = side.equals("source") ? home : 1 - home;
    // Each case's standby on a directory of its own (an earlier case's standby serves the slot now).
    SlotRunner standby = cluster.startStandby(failing, standbys++);
    int files = SplitStops.createUntilStopped(admin, dir, point);
    System.out.printf("%s (%s): slot %d's standby serves %.1f s after its active stopped%n", point, side, failing,
        StandbyCatchUpTest.failOver(cluster, failing, standby));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    for (int i = 0; i < 100; i++, files++) {
      TestData.createClosed(admin, dir + "/f" + files);
    }
    while (Slots.entriesOn(cluster, 1 - home, st.getInodeId()) == 0
        || cluster.server(0).splits().inFlight() + cluster.server(1).splits().inFlight() > 0) {
      assertTrue(System.nanoTime() < deadline, "the split completes after the failover");
      Thread.sleep(50);
    }
    SplitStops.assertEachNameOnce(cluster, admin, dir, st.getInodeId(), files);
  }
}
