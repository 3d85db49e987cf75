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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.indexfs.client.bulk.BulkInsertion;
import org.indexfs.client.bulk.DirectoryShipper;
import org.indexfs.client.bulk.LocalSubtree;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.rpc.RpcConnection;
import org.indexfs.proto.PublishResult;
import org.indexfs.proto.Rejection;
import org.indexfs.server.FaultPoints;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The home slot stopped between a publish's batch and the record of its answer, restarted, and
 * the publish sent again under its call id (as the client does after a reply timeout): past the
 * commit point the resend gets the publish's answer, report included, without running it again
 * (its file consumed, its lease released would otherwise fail it); before it, recovery undid the
 * publish and the resend lands it once.
 */
class BulkPublishHomeCrashTest {
  @TempDir
  static Path workDir;
  static LocalCluster cluster;
  static IndexFsClient admin;
  static IndexFsClient reader;

  @BeforeAll
  static void start() throws IOException {
    cluster = LocalCluster.builder(workDir).clusterName("bulkhomecrash").servers(1)
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

  @ParameterizedTest(name = "stop at {0}")
  @CsvSource({"publish.staged, false", "publish.ingested, true", "publish.recorded, true", "call.applied, true"})
  void aResendAfterTheHomeStoppedGetsThePublishOnce(String point, boolean landed) throws Exception {
    String dir = "/" + point.replace('.', '-');
    admin.mkdirs(dir, 0777);
    try (IndexFsClient holder = BulkPublishTest.client(cluster, "alice", "holder-" + point);
        BulkInsertion bulk = new BulkInsertion(holder, new DirectoryShipper(cluster.dataUri()), "buffer",
            workDir.resolve("scratch"), 100_000, 1L << 30)) {
      LocalSubtree t = bulk.localize(dir, 0755, false);
      t.mkdirs(dir + "/readonly", 0555);
      for (int i = 0; i < 10; i++) {
        t.complete(t.create(dir + "/f" + i, 0644, false, 1, 1 << 20).status().getInodeId(), 0, new byte[0], null);
      }
      // Refused (no write permission there): the report the resend must give back.
      t.complete(t.create(dir + "/readonly/a", 0644, false, 1, 1 << 20).status().getInodeId(), 0, new byte[0], null);

      List<String> points = new CopyOnWriteArrayList<>();
      AtomicBoolean fired = new AtomicBoolean();
      FaultPoints.install(p -> {
        points.add(p);
        // call.applied follows every at-most-once call: stop the publish's, once it ran.
        if (p.equals(point) && points.contains("publish.received") && fired.compareAndSet(false, true)) {
          throw new IllegalStateException("injected stop at " + p);
        }
      });
      long id = RpcConnection.newCallId();
      holder.reuseCallId(id);
      assertThrows(IOException.class, () -> t.publish(true));
      assertTrue(fired.get(), "the publish reached " + point + ": " + points);
      FaultPoints.install(null);
      cluster.restartServer();

      List<String> again = new CopyOnWriteArrayList<>();
      FaultPoints.install(again::add);
      holder.reuseCallId(id);
      PublishResult r = t.publish(true);
      FaultPoints.install(null);
      assertEquals(11, r.getIngested(), r.toString());
      assertEquals(Set.of(dir + "/readonly/a"), r.getRejectedList().stream().map(Rejection::getPath)
          .collect(Collectors.toSet()), "the publish's report: " + r);
      assertEquals(landed ? 0 : 1, again.stream().filter("publish.received"::equals).count(),
          (landed ? "answered without running again: " : "run again, once: ") + again);
      assertEquals(landed ? 0 : 1, again.stream().filter("publish.recorded"::equals).count(), again.toString());
    }
    assertEquals(expected(dir), new TreeSet<>(reader.listAll(dir).stream()
        .map(org.indexfs.proto.FileStatus::getName).collect(Collectors.toSet())));
    // The lease was released (by the first try, or at the resend): others may change the subtree.
    reader.mkdirs(dir + "/after", 0755);
  }

  @org.junit.jupiter.api.Test
  void aPublishThatIngestedNothingAnswersItsResendWithItsReport() throws Exception {
    admin.mkdirs("/refused/ro", 0777);
    admin.setPermission("/refused/ro", 0555);
    try (IndexFsClient holder = BulkPublishTest.client(cluster, "alice", "holder-refused");
        BulkInsertion bulk = new BulkInsertion(holder, new DirectoryShipper(cluster.dataUri()), "buffer",
            workDir.resolve("scratch"), 100_000, 1L << 30)) {
      LocalSubtree t = bulk.localize("/refused", 0755, false);
      t.complete(t.create("/refused/ro/a", 0644, false, 1, 1 << 20).status().getInodeId(), 0, new byte[0], null);
      List<String> points = new CopyOnWriteArrayList<>();
      AtomicBoolean fired = new AtomicBoolean();
      FaultPoints.install(p -> {
        points.add(p);
        if (p.equals("call.applied") && points.contains("publish.received") && fired.compareAndSet(false, true)) {
          throw new IllegalStateException("injected stop at " + p);
        }
      });
      long id = RpcConnection.newCallId();
      holder.reuseCallId(id);
      assertThrows(IOException.class, () -> t.publish(false));
      assertTrue(fired.get(), points.toString());
      FaultPoints.install(null);
      cluster.restartServer();

      List<String> again = new CopyOnWriteArrayList<>();
      FaultPoints.install(again::add);
      holder.reuseCallId(id);
      PublishResult r = t.publish(false); // the lease stays: no batch of the lease's carries the answer
      FaultPoints.install(null);
      assertEquals(0, r.getIngested(), r.toString());
      assertEquals(List.of("/refused/ro/a"), r.getRejectedList().stream().map(Rejection::getPath).toList(), r.toString());
      assertEquals(0, again.stream().filter("publish.received"::equals).count(), "not run again: " + again);
    }
    assertEquals(0, reader.listAll("/refused/ro").size());
    reader.mkdirs("/refused/after", 0755);
  }

  @org.junit.jupiter.api.Test
  void anEmptyPublishThatEndedTheLeaseAnswersItsResend() throws Exception {
    admin.mkdirs("/empty", 0777);
    try (IndexFsClient holder = BulkPublishTest.client(cluster, "alice", "holder-empty");
        BulkInsertion bulk = new BulkInsertion(holder, new DirectoryShipper(cluster.dataUri()), "buffer",
            workDir.resolve("scratch"), 100_000, 1L << 30)) {
      LocalSubtree t = bulk.localize("/empty", 0755, false);
      AtomicBoolean fired = new AtomicBoolean();
      FaultPoints.install(p -> {
        if (p.equals("call.applied") && fired.compareAndSet(false, true)) {
          throw new IllegalStateException("injected stop at " + p);
        }
      });
      long id = RpcConnection.newCallId();
      holder.reuseCallId(id);
      assertThrows(IOException.class, () -> t.publish(true));
      assertTrue(fired.get());
      FaultPoints.install(null);
      cluster.restartServer();
      holder.reuseCallId(id);
      // Released by the first try: a rerun would be refused LEASE_EXPIRED.
      assertEquals(PublishResult.getDefaultInstance(), t.publish(true));
    }
    reader.mkdirs("/empty/after", 0755);
  }

  private static Set<String> expected(String dir) {
    Set<String> out = new TreeSet<>(Set.of("readonly"));
    for (int i = 0; i < 10; i++) {
      out.add("f" + i);
    }
    return out;
  }
}
