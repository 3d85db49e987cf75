package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.indexfs.client.bulk.BulkInsertion;
import org.indexfs.client.bulk.LocalSubtree;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.rpc.RpcConnection;
import org.indexfs.proto.PublishResult;
import org.indexfs.proto.Rejection;
import org.indexfs.server.FaultPoints;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A publish sent again under its call id — by the client, when the answer is overdue, or by hand —
 * gets the first try's outcome (waiting for it while it runs), per-entry report included: it is
 * never ingested twice, and never answered with an error (the consumed file, the released lease)
 * for a publish that landed.
 */
class BulkPublishResendTest {
  @TempDir
  static Path workDir;
  static BulkCluster one;

  @BeforeAll
  static void start() throws IOException {
    // A long lease: the holders' short reply timeouts must not meet a renewal.
    one = BulkCluster.start(workDir, "bulkresend", 1, Map.of(IndexFsConfig.LOCALIZE_LEASE_MS.name(), "60000"));
  }

  @AfterAll
  static void stop() {
    one.close();
  }

  @AfterEach
  void noHook() {
    FaultPoints.install(null);
  }

  /** The server's points, the first {@code publish.received} held for {@code holdMs} (the answer is late). */
  static List<String> slowFirstIngest(long holdMs) {
    List<String> points = new CopyOnWriteArrayList<>();
    AtomicBoolean held = new AtomicBoolean();
    FaultPoints.install(p -> {
      points.add(p);
      if (p.equals("publish.received") && held.compareAndSet(false, true)) {
        try {
          Thread.sleep(holdMs);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    });
    return points;
  }

  static long count(List<String> points, String point) {
    return points.stream().filter(point::equals).count();
  }

  @Test
  void aResendWhileThePublishRunsWaitsForItsAnswerInsteadOfIngestingAgain() throws Exception {
    // Replies overdue after 2 s; the client resends the call (same id) within its failover wait.
    try (IndexFsClient holder = one.client("holder-wait", 2_000, 60_000); BulkInsertion bulk = one.bulk(holder)) {
      LocalSubtree t = bulk.localize("/wait", 0777, false);
      BulkCluster.files(t, "/wait", 20);
      List<String> points = slowFirstIngest(7_000);
      PublishResult r = t.publish(true);
      FaultPoints.install(null);
      assertEquals(20, r.getIngested(), r.toString());
      assertEquals(0, r.getRejectedCount(), r.toString());
      assertTrue(holder.rpcCounters().get("retry") > 0, "the client did resend: " + holder.rpcCounters().snapshot());
      assertEquals(1, count(points, "publish.received"), "run once: " + points);
      assertEquals(1, count(points, "publish.recorded"), "ingested once: " + points);
    }
    assertEquals(20, one.reader.listAll("/wait").size());
  }

  @Test
  void aPublishOutlastingTheFailoverWaitIsAskedForAgainUnderItsCallId() throws Exception {
    // The client's failover wait (1 s) runs out long before the answer (6 s): the publish, not the
    // application, keeps asking under the same call id.
    try (IndexFsClient holder = one.client("holder-late", 1_500, 1_000); BulkInsertion bulk = one.bulk(holder)) {
      LocalSubtree t = bulk.localize("/late", 0777, false);
      BulkCluster.files(t, "/late", 10);
      List<String> points = slowFirstIngest(6_000);
      PublishResult r = t.publish(true);
      FaultPoints.install(null);
      assertEquals(10, r.getIngested(), r.toString());
      assertTrue(holder.rpcCounters().get("publish.resend") > 0, holder.rpcCounters().snapshot().toString());
      assertEquals(1, count(points, "publish.recorded"), "ingested once: " + points);
    }
    assertEquals(10, one.reader.listAll("/late").size());
  }

  @Test
  void aSecondCallWithTheSameIdGetsTheFirstReportNotANewPublish() throws Exception {
    try (IndexFsClient holder = one.client("alice", "holder-again"); BulkInsertion bulk = one.bulk(holder)) {
      one.admin.mkdirs("/again", 0777);
      LocalSubtree t = bulk.localize("/again", 0755, false);
      t.mkdirs("/again/readonly", 0555);
      t.complete(t.create("/again/ok", 0644, false, 1, 1 << 20).status().getInodeId(), 0, new byte[0], null);
      t.complete(t.create("/again/readonly/a", 0644, false, 1, 1 << 20).status().getInodeId(), 0, new byte[0], null);
      long id = RpcConnection.newCallId();
      holder.reuseCallId(id);
      PublishResult first = t.publish(false);
      assertEquals(2, first.getIngested(), first.toString());
      assertEquals(Set.of("/again/readonly/a"),
          first.getRejectedList().stream().map(Rejection::getPath).collect(Collectors.toSet()));
      // Sent again as a lost answer's retry would be (nothing pending now: an empty publish).
      holder.reuseCallId(id);
      PublishResult again = t.publish(false);
      assertEquals(first, again, "the first call's answer, its report included");
      PublishResult fresh = t.publish(false);
      assertEquals(0, fresh.getIngested(), "a new call is a new publish: " + fresh);
    }
    assertEquals(Set.of("ok", "readonly"), one.listedNames("/again"));
  }
}
