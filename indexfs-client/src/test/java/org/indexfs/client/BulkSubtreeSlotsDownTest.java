package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.indexfs.client.bulk.BulkInsertion;
import org.indexfs.client.bulk.LocalSubtree;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.PublishResult;
import org.indexfs.server.FaultPoints;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A publish into a subtree with a directory homed on another slot, that slot down before it
 * prepares its share: nothing is published anywhere, the holder is answered without waiting for
 * the abort to reach the slot, and the publish lands once when it is back; the holder hears an
 * error only for a publish that did not land.
 * Its own cluster: the lease outlives the peer calls' 30 s wait for the slot (the holder cannot
 * renew while its publish waits).
 */
class BulkSubtreeSlotsDownTest {
  @TempDir
  static Path workDir;
  static BulkSlots slots;
  static LocalCluster cluster;
  static IndexFsClient admin;

  @BeforeAll
  static void start() throws IOException {
    slots = BulkSlots.start(workDir, "bulksubtreedown", Map.of(IndexFsConfig.LOCALIZE_LEASE_MS.name(), "180000"));
    cluster = slots.cluster;
    admin = slots.admin;
  }

  @AfterAll
  static void stop() {
    slots.close();
  }

  @AfterEach
  void noHook() {
    FaultPoints.install(null);
  }

  String subdirElsewhere(String root) throws IOException {
    admin.mkdirs(root, 0777);
    int home = admin.getFileStatus(root).getZerothSlot();
    // Neither the localized directory's slot nor slot 0, which holds the root: stopping it would
    // stop every path's resolution, not just the participant's share.
    int other = home == 1 ? 2 : 1;
    String path = Slots.dirOn(admin, root, "s", other);
    TestData.createClosed(admin, path + "/pre");
    return path;
  }

  Set<String> names(String dir) throws IOException {
    return slots.listedNames(dir);
  }

  boolean exists(String path) throws IOException {
    return slots.exists(path);
  }

  static void file(LocalSubtree t, String path) throws IOException {
    t.complete(t.create(path, 0644, false, 1, 1 << 20).status().getInodeId(), 1, new byte[] {7}, null);
  }

  /** Publishes {@code t} (with release) on another thread. */
  static java.util.concurrent.CompletableFuture<PublishResult> publishAsync(LocalSubtree t) {
    return java.util.concurrent.CompletableFuture.supplyAsync(() -> {
      try {
        return t.publish(true);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
  }

  /** Stops {@code participant} when the home has recorded its undecided publish; returns the points seen. */
  static java.util.List<String> stopAtRecorded(int participant, AtomicBoolean fired) {
    java.util.List<String> points = new java.util.concurrent.CopyOnWriteArrayList<>();
    FaultPoints.install(p -> {
      points.add(p);
      if (p.equals("publish.tx.recorded") && fired.compareAndSet(false, true)) {
        cluster.stopServer(participant); // before it is asked to prepare
      }
    });
    return points;
  }

  static void waitFor(AtomicBoolean fired) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 30_000;
    while (!fired.get()) {
      assertTrue(System.currentTimeMillis() < deadline, "the publish reached its participants");
      Thread.sleep(50);
    }
  }

  /** The publish of "top" and "mine" was answered with both ingested, decided once over all its tries. */
  static void decidedOnce(PublishResult r, java.util.List<String> points) {
    assertEquals(0, r.getRejectedCount(), r.toString());
    assertEquals(2, r.getIngested(), r.toString());
    assertEquals(1, points.stream().filter("publish.committed"::equals).count(), "decided once: " + points);
  }

  /** The entries of the subtree are on the slots once each, and visible. */
  void landedOnce(String s0) throws IOException {
    assertEquals(Set.of("pre", "mine"), names(s0));
    assertEquals(2, slots.entriesEverywhere(admin.getFileStatus(s0).getInodeId()), "each entry once, on the slots");
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void aSubdirectorysSlotDownBeforeItPreparesPublishesNothingAndTheRetryLandsOnce() throws Exception {
    String root = "/down";
    String s0 = subdirElsewhere(root);
    int participant = admin.getFileStatus(s0).getZerothSlot();
    // The holder's BulkInsertion is closed with it: its renewer must not outlive this test's cluster
    // (LongPublishLeaseTest, later in the same JVM, counts renewal warnings).
    try (IndexFsClient holder = slots.client(TestData.USER, "holder-down"); BulkInsertion bulk = slots.bulk(holder)) {
      LocalSubtree t = bulk.localize(root, 0777, false);
      file(t, root + "/top");
      file(t, s0 + "/mine");
      AtomicBoolean fired = new AtomicBoolean();
      java.util.List<String> points = stopAtRecorded(participant, fired);
      // The client resends the call (same id) while its answer is overdue or says "retry" (SERVER_BUSY):
      // each resend waits for the running try or runs the call again once the try before it aborted.
      java.util.concurrent.CompletableFuture<PublishResult> publish = publishAsync(t);
      waitFor(fired);
      // The home's call to prepare fails at once (ZooKeeper shows the slot away): it aborts the publish.
      long deadline = System.currentTimeMillis() + 150_000;
      while (!points.contains("publish.aborted")) {
        assertTrue(System.currentTimeMillis() < deadline, "the first attempt aborted: " + points);
        assertFalse(exists(root + "/top"), "nothing published on the home while a participant is down");
        Thread.sleep(250);
      }
      assertFalse(exists(root + "/top"));
      assertFalse(points.contains("publish.prepared"), "never decided while the participant was down: " + points);
      cluster.restartServer(participant);
      assertEquals(Set.of("pre"), names(s0));
      PublishResult r;
      try {
        r = publish.get(150, TimeUnit.SECONDS); // a resend of the same call landed it
      } catch (java.util.concurrent.ExecutionException e) {
        // The only error the holder may see is one for a publish that did not land; it publishes again.
        IndexFsException refused = assertInstanceOf(IndexFsException.class, e.getCause().getCause(), e.toString());
        assertEquals(Code.SERVER_BUSY, refused.code(), refused.getMessage());
        assertTrue(refused.getMessage().contains("nothing was published"), refused.getMessage());
        assertFalse(exists(root + "/top"), "an error only for a publish that did not land");
        r = retry(t);
      }
      FaultPoints.install(null);
      decidedOnce(r, points);
    }
    landedOnce(s0);
    assertTrue(exists(root + "/top"));
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void anAbortedPublishIsAnsweredBeforeItsParticipantsAreTold() throws Exception {
    String root = "/abort";
    String s0 = subdirElsewhere(root);
    int participant = admin.getFileStatus(s0).getZerothSlot();
    // No failover wait: the holder hears the first answer itself.
    try (IndexFsClient holder = slots.client("holder-abort", 120_000, 0); BulkInsertion bulk = slots.bulk(holder)) {
      LocalSubtree t = bulk.localize(root, 0777, false);
      file(t, root + "/top");
      file(t, s0 + "/mine");
      AtomicBoolean fired = new AtomicBoolean();
      java.util.List<String> points = stopAtRecorded(participant, fired);
      long sent = System.nanoTime();
      java.util.concurrent.CompletableFuture<PublishResult> publish = publishAsync(t);
      java.util.concurrent.ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(
          java.util.concurrent.ExecutionException.class, () -> publish.get(150, TimeUnit.SECONDS));
      // ZooKeeper shows the slot without a server or standby: its PREPARE fails at once, not after
      // the peer call's 30 s failover wait.
      double answeredS = (System.nanoTime() - sent) / 1e9;
      assertTrue(answeredS < 15, "answered in " + answeredS + " s");
      java.util.List<String> seen = java.util.List.copyOf(points);
      refusedBusy(e, "nothing was published: retry");
      assertTrue(seen.contains("publish.aborted"), seen.toString());
      // Telling the stopped slot ABORT takes the peer call's 30 s: the holder was answered first.
      assertFalse(seen.contains("publish.unsettled"), "answered without waiting for the abort: " + seen);
      assertFalse(exists(root + "/top"));
      cluster.restartServer(participant);
      retriedOnce(t, points);
    }
    landedOnce(s0);
    assertTrue(exists(root + "/top"));
  }

  /**
   * A participant killed before its registration expired (kill -9: its ZooKeeper node stays for the
   * session's timeout) and without a standby: nothing listens at its address, so its PREPARE fails
   * at once rather than after the peer call's 30 s wait. The stale registration is made here by
   * writing the stopped server's node back, as a session not yet expired leaves it.
   */
  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void aPrepareToAKilledSlotStillRegisteredFailsAtOnce() throws Exception {
    String root = "/killed";
    String s0 = subdirElsewhere(root);
    int participant = admin.getFileStatus(s0).getZerothSlot();
    String node = org.indexfs.common.ClusterPaths.slot(cluster.clusterName(), participant);
    // As the servers (the registration is theirs to write).
    try (org.apache.curator.framework.CuratorFramework zk = cluster.serversInZooKeeper().builder(cluster.zookeeperConnect())
            .retryPolicy(new org.apache.curator.retry.RetryOneTime(100)).build();
        IndexFsClient holder = slots.client("holder-killed", 120_000, 0); BulkInsertion bulk = slots.bulk(holder)) {
      zk.start();
      byte[] registration = zk.getData().forPath(node);
      LocalSubtree t = bulk.localize(root, 0777, false);
      file(t, root + "/top");
      file(t, s0 + "/mine");
      AtomicBoolean fired = new AtomicBoolean();
      java.util.List<String> points = new java.util.concurrent.CopyOnWriteArrayList<>();
      FaultPoints.install(p -> {
        points.add(p);
        if (p.equals("publish.tx.recorded") && fired.compareAndSet(false, true)) {
          cluster.stopServer(participant);
          try {
            zk.create().forPath(node, registration);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }
      });
      long sent = System.nanoTime();
      java.util.concurrent.CompletableFuture<PublishResult> publish = publishAsync(t);
      java.util.concurrent.ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(
          java.util.concurrent.ExecutionException.class, () -> publish.get(150, TimeUnit.SECONDS));
      double answeredS = (System.nanoTime() - sent) / 1e9;
      assertTrue(fired.get(), points.toString());
      refusedBusy(e, "refuses connections");
      assertTrue(answeredS < 15, "answered in " + answeredS + " s, not after the 30 s wait");
      assertFalse(exists(root + "/top"));
      zk.delete().forPath(node); // the session's expiry
      cluster.restartServer(participant);
      retriedOnce(t, points);
    }
    landedOnce(s0);
    assertTrue(exists(root + "/top"));
  }

  /** The publish failed SERVER_BUSY, its message saying {@code says}: nothing of it landed. */
  static void refusedBusy(java.util.concurrent.ExecutionException e, String says) {
    IndexFsException refused = assertInstanceOf(IndexFsException.class, e.getCause().getCause(), e.toString());
    assertEquals(Code.SERVER_BUSY, refused.code(), refused.getMessage());
    assertTrue(refused.getMessage().contains(says), refused.getMessage());
  }

  /** The holder publishes again once its slot is back: it lands, decided once over all the tries. */
  static void retriedOnce(LocalSubtree t, java.util.List<String> points) throws Exception {
    PublishResult r = retry(t);
    FaultPoints.install(null);
    decidedOnce(r, points);
  }

  /** The holder's publish again (with release), while a slot still settles the aborted one. */
  static PublishResult retry(LocalSubtree t) throws Exception {
    return PublishAgain.untilAccepted(t, 90_000, Code.STALE_RESOLUTION, Code.SERVER_BUSY);
  }
}
