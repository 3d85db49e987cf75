package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.proto.FileStatus;
import org.indexfs.server.local.LocalCluster;
import org.indexfs.server.FaultPoints;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * A GIGA+ split stopped at each phase, on the source or on the receiver, and the stopped server
 * restarted: afterwards the directory still holds every name exactly once, and it completes its
 * split over both slots.
 */
class SplitFaultTest {
  @TempDir
  static Path workDir;
  static LocalCluster cluster;
  static IndexFsClient admin;

  @BeforeAll
  static void start() throws IOException {
    cluster = LocalCluster.builder(workDir).clusterName("splitfaults").servers(2)
        .set(IndexFsConfig.SPLIT_THRESHOLD.name(), "40")
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

  @ParameterizedTest(name = "stop the {1} at {0}")
  @CsvSource({"split.recorded, source", "split.shipped, source", "split.ingested, source",
      "ingest.received, receiver", "ingest.recorded, receiver"})
  void aSplitStoppedAtAnyPhaseLosesAndDuplicatesNothing(String point, String side) throws Exception {
    String dir = "/" + point.replace('.', '-');
    admin.mkdirs(dir, 0755);
    FileStatus st = admin.getFileStatus(dir);
    int home = st.getZerothSlot();
    int files = SplitStops.createUntilStopped(admin, dir, point);
    cluster.restartServer(side.equals("source") ? home : 1 - home);
    for (int i = 0; i < 100; i++, files++) {
      TestData.createClosed(admin, dir + "/f" + files);
    }
    long deadline = System.currentTimeMillis() + 20_000;
    while (Slots.entriesOn(cluster, 1 - home, st.getInodeId()) == 0) {
      assertTrue(System.currentTimeMillis() < deadline, "the split completes after the restart");
      Thread.sleep(50);
    }
    // Give a pending recovery its pass, then check every name once.
    Thread.sleep(500);
    SplitStops.assertEachNameOnce(cluster, admin, dir, st.getInodeId(), files);
  }
}
