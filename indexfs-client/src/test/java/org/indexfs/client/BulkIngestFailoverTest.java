package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.indexfs.client.bulk.BulkInsertion;
import org.indexfs.client.bulk.DirectoryShipper;
import org.indexfs.client.bulk.LocalSubtree;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.proto.PublishResult;
import org.indexfs.server.FaultPoints;
import org.indexfs.server.SlotRunner;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A bulk ingest interrupted by a failover (issue 14): a publish stops at one of its ingest phases,
 * the slot's active dies and its standby — which knows the localization and the ingest only from
 * the journal — takes the slot over. Readers then see all of the publish or none of it, and the
 * holder's retry, against the new active under the same lease, lands every entry exactly once
 * ({@link BulkIngestFaultTest} is the same with a restart on the same disk).
 */
class BulkIngestFailoverTest {
  @TempDir
  static Path workDir;
  static LocalCluster cluster;
  static IndexFsClient reader;
  static int standbys = 1;

  @BeforeAll
  static void start() throws IOException {
    cluster = LocalCluster.builder(workDir).clusterName("bulkfailover").servers(1)
        .set(IndexFsConfig.JOURNAL_ENABLED.name(), "true")
        .set(IndexFsConfig.ZOOKEEPER_SESSION_TIMEOUT_MS.name(), "3000")
        .set(IndexFsConfig.LOCALIZE_LEASE_MS.name(), "60000").start();
    reader = BulkPublishTest.client(cluster, "reader", "reader-client");
  }

  @AfterAll
  static void stop() {
    reader.close();
    cluster.close();
  }

  @AfterEach
  void noHook() {
    FaultPoints.install(null);
  }

  @ParameterizedTest(name = "the active fails over at {0}")
  @ValueSource(strings = {"publish.received", "publish.staged", "publish.ingested", "publish.recorded"})
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void aPublishInterruptedByAFailoverEndsAllOrNothingAndItsRetryLandsOnce(String point) throws Exception {
    String dir = "/" + point.replace('.', '-');
    SlotRunner standby = cluster.startStandby(0, standbys++);
    try (IndexFsClient holder = BulkPublishTest.client(cluster, TestData.USER, "holder-" + point)) {
      BulkInsertion bulk = new BulkInsertion(holder, new DirectoryShipper(cluster.dataUri()), "buffer",
          workDir.resolve("scratch"), 100_000, 1L << 30);
      LocalSubtree t = bulk.localize(dir, 0777, false);
      Set<String> made = BulkIngestFaultTest.fill(t, dir);
      // The standby has replayed the grant before the active goes (it is journaled before it is answered).
      StandbyCatchUpTest.awaitCaughtUp(cluster, standby);
      AtomicBoolean fired = new AtomicBoolean();
      FaultPoints.install(p -> {
        if (p.equals(point) && fired.compareAndSet(false, true)) {
          throw new IllegalStateException("injected stop at " + point);
        }
      });
      assertThrows(IOException.class, () -> t.publish(false));
      assertTrue(fired.get());
      FaultPoints.install(null);
      System.out.printf("%s: the standby serves %.1f s after its active stopped%n", point,
          StandbyCatchUpTest.failOver(cluster, 0, standby));

      Set<String> seen = BulkIngestFaultTest.tree(reader, dir);
      assertTrue(seen.isEmpty() || seen.equals(made),
          "all or nothing after a failover at " + point + ": " + seen.size() + " of " + made.size() + " entries");
      System.out.printf("%s: after the failover the subtree shows %s%n", point, seen.isEmpty() ? "nothing" : "all");

      PublishResult retry = t.publish(true);
      assertEquals(0, retry.getRejectedCount(), retry.toString());
      assertEquals(made, BulkIngestFaultTest.tree(reader, dir), "the retry lands every entry exactly once");
      assertEquals(3, reader.listAll(dir).size());
    }
  }
}
