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
import org.indexfs.client.bulk.DirectoryShipper;
import org.indexfs.client.bulk.LocalSubtree;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.rpc.RpcConnection;
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
  static LocalCluster cluster;
  static IndexFsClient admin;
  static IndexFsClient reader;
  static int standbys = 1;

  @BeforeAll
  static void start() throws IOException {
    cluster = LocalCluster.builder(workDir).clusterName("bulkhomefo").servers(1)
        .set(IndexFsConfig.JOURNAL_ENABLED.name(), "true")
        .set(IndexFsConfig.ZOOKEEPER_SESSION_TIMEOUT_MS.name(), "3000")
        .set(IndexFsConfig.LOCALIZE_LEASE_MS.name(), "60000").start();
    admin = BulkPublishTest.client(cluster, TestData.USER, "admin");
    reader = BulkPublishTest.client(cluster, "reader", "reader");
    reader.waitForLocalized(0);
  }

  @AfterAll
  static void stop() {
    reader.close();
    admin.close();
    cluster.close();
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
    admin.mkdirs(dir, 0777);
    SlotRunner standby = cluster.startStandby(0, standbys++);
    try (IndexFsClient holder = BulkPublishTest.client(cluster, "alice", "holder-" + point);
        BulkInsertion bulk = new BulkInsertion(holder, new DirectoryShipper(cluster.dataUri()), "buffer",
            workDir.resolve("scratch"), 100_000, 1L << 30)) {
      LocalSubtree t = bulk.localize(dir, 0755, false);
      t.mkdirs(dir + "/readonly", 0555);
      for (int i = 0; i < 10; i++) {
        t.complete(t.create(dir + "/f" + i, 0644, false, 1, 1 << 20).status().getInodeId(), 0, new byte[0], null);
      }
      t.complete(t.create(dir + "/readonly/a", 0644, false, 1, 1 << 20).status().getInodeId(), 0, new byte[0], null);
      StandbyCatchUpTest.awaitCaughtUp(cluster, standby);

      List<String> points = new CopyOnWriteArrayList<>();
      AtomicBoolean fired = new AtomicBoolean();
      FaultPoints.install(p -> {
        points.add(p);
        if (p.equals(point) && points.contains("publish.received") && fired.compareAndSet(false, true)) {
          throw new IllegalStateException("injected stop at " + p);
        }
      });
      long id = RpcConnection.newCallId();
      holder.reuseCallId(id);
      assertThrows(IOException.class, () -> t.publish(true));
      assertTrue(fired.get(), "the publish reached " + point + ": " + points);
      FaultPoints.install(null);
      StandbyCatchUpTest.awaitCaughtUp(cluster, standby);
      StandbyCatchUpTest.failOver(cluster, 0, standby);
      boolean landed = !reader.listAll(dir).isEmpty();

      List<String> again = new CopyOnWriteArrayList<>();
      FaultPoints.install(again::add);
      holder.reuseCallId(id);
      PublishResult r = t.publish(true);
      FaultPoints.install(null);
      assertEquals(11, r.getIngested(), r.toString());
      assertEquals(Set.of(dir + "/readonly/a"), r.getRejectedList().stream().map(Rejection::getPath)
          .collect(Collectors.toSet()), "the publish's report: " + r);
      assertEquals(landed ? 0 : 1, again.stream().filter("publish.received"::equals).count(),
          (landed ? "landed before the failover, answered without running again: " : "run again, once: ") + again);
      if (!point.equals("publish.staged")) {
        assertTrue(landed, "past the commit point the standby has the publish");
      }
    }
    Set<String> expected = new TreeSet<>(Set.of("readonly"));
    for (int i = 0; i < 10; i++) {
      expected.add("f" + i);
    }
    assertEquals(expected, reader.listAll(dir).stream().map(FileStatus::getName).collect(Collectors.toCollection(TreeSet::new)));
    reader.mkdirs(dir + "/after", 0755);
  }
}
