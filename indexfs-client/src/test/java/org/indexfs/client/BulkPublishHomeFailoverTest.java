package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.indexfs.client.bulk.BulkInsertion;
import org.indexfs.client.bulk.LocalSubtree;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.proto.PublishResult;
import org.indexfs.server.FaultPoints;
import org.indexfs.server.SlotRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link BulkPublishHomeCrashTest} with a failover instead of a restart: the standby knows the
 * publish's mark (and its answer) only from the journal. Past the commit point the resend gets the
 * report without running the publish again; before it, the standby undid the intent (or never saw
 * it) and the resend lands it once. Either way the subtree ends with every entry exactly once.
 */
class BulkPublishHomeFailoverTest {
  @TempDir
  static Path workDir;
  static BulkCluster one;
  static int standbys = 1;

  @BeforeAll
  static void start() throws IOException {
    one = BulkCluster.start(workDir, "bulkhomefo", 1, Map.of(
        IndexFsConfig.JOURNAL_ENABLED.name(), "true",
        IndexFsConfig.ZOOKEEPER_SESSION_TIMEOUT_MS.name(), "3000",
        IndexFsConfig.LOCALIZE_LEASE_MS.name(), "60000"));
  }

  @AfterAll
  static void stop() {
    one.close();
  }

  @AfterEach
  void noHook() {
    FaultPoints.install(null);
  }

  @ParameterizedTest(name = "the active fails over at {0}")
  @ValueSource(strings = {"publish.staged", "publish.ingested", "publish.recorded", "call.applied"})
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void aResendAfterTheHomeFailedOverGetsThePublishOnce(String point) throws Exception {
    String dir = "/" + point.replace('.', '-');
    one.admin.mkdirs(dir, 0777);
    SlotRunner standby = one.cluster.startStandby(0, standbys++);
    try (IndexFsClient holder = one.client("alice", "holder-" + point); BulkInsertion bulk = one.bulk(holder)) {
      LocalSubtree t = bulk.localize(dir, 0755, false);
      BulkPublishHomeCrashTest.filesAndARefusal(t, dir);
      StandbyCatchUpTest.awaitCaughtUp(one.cluster, standby);

      long id = PublishAgain.stoppedAt(point, holder, t, true);
      StandbyCatchUpTest.awaitCaughtUp(one.cluster, standby);
      StandbyCatchUpTest.failOver(one.cluster, 0, standby);
      boolean landed = !one.reader.listAll(dir).isEmpty();

      List<String> again = new CopyOnWriteArrayList<>();
      PublishResult r = PublishAgain.underCallId(holder, t, id, true, again);
      BulkPublishHomeCrashTest.assertReport(dir, r);
      assertEquals(landed ? 0 : 1, again.stream().filter("publish.received"::equals).count(),
          (landed ? "landed before the failover, answered without running again: " : "run again, once: ") + again);
      if (!point.equals("publish.staged")) {
        assertTrue(landed, "past the commit point the standby has the publish");
      }
    }
    assertEquals(BulkPublishHomeCrashTest.expected(), one.listedNames(dir));
    one.reader.mkdirs(dir + "/after", 0755);
  }
}
