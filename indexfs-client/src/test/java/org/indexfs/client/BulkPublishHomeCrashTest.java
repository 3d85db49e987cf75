package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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
  static BulkCluster one;

  @BeforeAll
  static void start() throws IOException {
    one = BulkCluster.start(workDir, "bulkhomecrash", 1, Map.of(IndexFsConfig.LOCALIZE_LEASE_MS.name(), "60000"));
  }

  @AfterAll
  static void stop() {
    one.close();
  }

  @AfterEach
  void noHook() {
    FaultPoints.install(null);
  }

  @ParameterizedTest(name = "stop at {0}")
  @CsvSource({"publish.staged, false", "publish.ingested, true", "publish.recorded, true", "call.applied, true"})
  void aResendAfterTheHomeStoppedGetsThePublishOnce(String point, boolean landed) throws Exception {
    String dir = "/" + point.replace('.', '-');
    one.admin.mkdirs(dir, 0777);
    try (IndexFsClient holder = one.client("alice", "holder-" + point); BulkInsertion bulk = one.bulk(holder)) {
      LocalSubtree t = bulk.localize(dir, 0755, false);
      filesAndARefusal(t, dir);
      long id = PublishAgain.stoppedAt(point, holder, t, true);
      one.cluster.restartServer();

      List<String> again = new CopyOnWriteArrayList<>();
      PublishResult r = PublishAgain.underCallId(holder, t, id, true, again);
      assertReport(dir, r);
      assertEquals(landed ? 0 : 1, again.stream().filter("publish.received"::equals).count(),
          (landed ? "answered without running again: " : "run again, once: ") + again);
      assertEquals(landed ? 0 : 1, again.stream().filter("publish.recorded"::equals).count(), again.toString());
    }
    assertEquals(expected(), one.listedNames(dir));
    // The lease was released (by the first try, or at the resend): others may change the subtree.
    one.reader.mkdirs(dir + "/after", 0755);
  }

  @Test
  void aPublishThatIngestedNothingAnswersItsResendWithItsReport() throws Exception {
    one.admin.mkdirs("/refused/ro", 0777);
    one.admin.setPermission("/refused/ro", 0555);
    try (IndexFsClient holder = one.client("alice", "holder-refused"); BulkInsertion bulk = one.bulk(holder)) {
      LocalSubtree t = bulk.localize("/refused", 0755, false);
      t.complete(t.create("/refused/ro/a", 0644, false, 1, 1 << 20).status().getInodeId(), 0, new byte[0], null);
      long id = PublishAgain.stoppedAt("call.applied", holder, t, false);
      one.cluster.restartServer();

      List<String> again = new CopyOnWriteArrayList<>();
      // The lease stays: no batch of the lease's carries the answer.
      PublishResult r = PublishAgain.underCallId(holder, t, id, false, again);
      assertEquals(0, r.getIngested(), r.toString());
      assertEquals(List.of("/refused/ro/a"), r.getRejectedList().stream().map(Rejection::getPath).toList(), r.toString());
      assertEquals(0, again.stream().filter("publish.received"::equals).count(), "not run again: " + again);
    }
    assertEquals(0, one.reader.listAll("/refused/ro").size());
    one.reader.mkdirs("/refused/after", 0755);
  }

  @Test
  void anEmptyPublishThatEndedTheLeaseAnswersItsResend() throws Exception {
    one.admin.mkdirs("/empty", 0777);
    try (IndexFsClient holder = one.client("alice", "holder-empty"); BulkInsertion bulk = one.bulk(holder)) {
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
      one.cluster.restartServer();
      holder.reuseCallId(id);
      // Released by the first try: a rerun would be refused LEASE_EXPIRED.
      assertEquals(PublishResult.getDefaultInstance(), t.publish(true));
    }
    one.reader.mkdirs("/empty/after", 0755);
  }

  /**
   * Ten files in {@code dir} and a directory "readonly" the holder may not write with one file in
   * it: refused (no write permission there), the report the resend must give back.
   */
  static void filesAndARefusal(LocalSubtree t, String dir) throws IOException {
    t.mkdirs(dir + "/readonly", 0555);
    BulkCluster.files(t, dir, 10);
    t.complete(t.create(dir + "/readonly/a", 0644, false, 1, 1 << 20).status().getInodeId(), 0, new byte[0], null);
  }

  /** The answer to the publish of {@link #filesAndARefusal}: all eleven ingested, the one refusal reported. */
  static void assertReport(String dir, PublishResult r) {
    assertEquals(11, r.getIngested(), r.toString());
    assertEquals(Set.of(dir + "/readonly/a"), r.getRejectedList().stream().map(Rejection::getPath)
        .collect(Collectors.toSet()), "the publish's report: " + r);
  }

  /** The names of a directory once the publish of {@link #filesAndARefusal} landed. */
  static Set<String> expected() {
    Set<String> out = new TreeSet<>(Set.of("readonly"));
    for (int i = 0; i < 10; i++) {
      out.add("f" + i);
    }
    return out;
  }
}
