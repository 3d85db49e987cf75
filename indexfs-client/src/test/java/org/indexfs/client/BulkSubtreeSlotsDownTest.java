package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
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
 * prepares its share: nothing is published anywhere, and the publish lands once when it is back.
 * Its own cluster: the lease outlives the peer calls' 30 s wait for the slot (the holder cannot
 * renew while its publish waits).
 */
class BulkSubtreeSlotsDownTest {
  @TempDir
  static Path workDir;
  static LocalCluster cluster;
  static IndexFsClient admin;
  static IndexFsClient reader;

  @BeforeAll
  static void start() throws IOException {
    cluster = LocalCluster.builder(workDir).clusterName("bulksubtreedown").servers(4)
        .set(IndexFsConfig.LOCALIZE_LEASE_MS.name(), "180000").start();
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

  BulkInsertion bulk(IndexFsClient c) {
    return new BulkInsertion(c, new org.indexfs.client.bulk.DirectoryShipper(cluster.dataUri()), "buffer",
        workDir.resolve("scratch"), 100_000, 1L << 30);
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
    return reader.listAll(dir).stream().map(org.indexfs.proto.FileStatus::getName)
        .collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new));
  }

  boolean exists(String path) throws IOException {
    try {
      reader.getFileStatus(path);
      return true;
    } catch (IndexFsException e) {
      assertEquals(Code.FILE_NOT_FOUND, e.code(), e.getMessage());
      return false;
    }
  }

  static void file(LocalSubtree t, String path) throws IOException {
    t.complete(t.create(path, 0644, false, 1, 1 << 20).status().getInodeId(), 1, new byte[] {7}, null);
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void aSubdirectorysSlotDownBeforeItPreparesPublishesNothingAndTheRetryLandsOnce() throws Exception {
    String s0 = subdirElsewhere("/down");
    int participant = admin.getFileStatus(s0).getZerothSlot();
    // The holder's BulkInsertion is closed with it: its renewer must not outlive this test's cluster
    // (LongPublishLeaseTest, later in the same JVM, counts renewal warnings).
    try (IndexFsClient holder = BulkPublishTest.client(cluster, TestData.USER, "holder-down");
        BulkInsertion bulk = bulk(holder)) {
      LocalSubtree t = bulk.localize("/down", 0777, false);
      file(t, "/down/top");
      file(t, s0 + "/mine");
      AtomicBoolean fired = new AtomicBoolean();
      java.util.List<String> points = new java.util.concurrent.CopyOnWriteArrayList<>();
      FaultPoints.install(p -> {
        points.add(p);
        if (p.equals("publish.tx.recorded") && fired.compareAndSet(false, true)) {
          cluster.stopServer(participant); // before it is asked to prepare
        }
      });
      // The client retries a publish that did not prepare everywhere (SERVER_BUSY) until it lands.
      java.util.concurrent.CompletableFuture<PublishResult> publish = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
        try {
          return t.publish(true);
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      long deadline = System.currentTimeMillis() + 30_000;
      while (!fired.get()) {
        assertTrue(System.currentTimeMillis() < deadline, "the publish reached its participants");
        Thread.sleep(50);
      }
      // The home's call to prepare fails once the peer call gives up (30 s): it aborts the publish.
      deadline = System.currentTimeMillis() + 150_000;
      while (!points.contains("publish.aborted")) {
        assertTrue(System.currentTimeMillis() < deadline, "the first attempt aborted: " + points);
        assertFalse(exists("/down/top"), "nothing published on the home while a participant is down");
        Thread.sleep(250);
      }
      assertFalse(exists("/down/top"));
      assertFalse(points.contains("publish.prepared"), "never decided while the participant was down: " + points);
      cluster.restartServer(participant);
      assertEquals(Set.of("pre"), names(s0));
      PublishResult r = null;
      try {
        r = publish.get(150, TimeUnit.SECONDS); // the client's own retry landed it
      } catch (java.util.concurrent.ExecutionException gaveUp) {
        // The client stopped retrying (its failover wait ran out while the home waited for the
        // slot): the holder publishes again, unless a resend of the same call landed it already
        // (then the lease is released and the entries below are there, once).
        try {
          r = retry(t);
        } catch (IndexFsException e) {
          assertEquals(Code.LEASE_EXPIRED, e.code(), e.getMessage());
        }
      }
      FaultPoints.install(null);
      if (r != null) {
        assertEquals(0, r.getRejectedCount(), r.toString());
        assertEquals(2, r.getIngested(), r.toString());
      }
      assertEquals(1, points.stream().filter("publish.committed"::equals).count(), "decided once: " + points);
    }
    assertEquals(Set.of("pre", "mine"), names(s0));
    long s0Id = admin.getFileStatus(s0).getInodeId();
    long stored = 0;
    for (int slot = 0; slot < 4; slot++) {
      stored += Slots.entriesOn(cluster, slot, s0Id);
    }
    assertEquals(2, stored, "each entry once, on the slots");
    assertTrue(exists("/down/top"));
  }

  /** The holder's publish again (with release), while a slot still settles the aborted one. */
  static PublishResult retry(LocalSubtree t) throws Exception {
    long deadline = System.currentTimeMillis() + 60_000;
    while (true) {
      try {
        return t.publish(true);
      } catch (IndexFsException e) {
        if ((e.code() != Code.STALE_RESOLUTION && e.code() != Code.SERVER_BUSY) || System.currentTimeMillis() > deadline) {
          throw e;
        }
        Thread.sleep(200);
      }
    }
  }
}
