package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.proto.FileStatus;
import org.indexfs.server.local.EmbeddedZooKeeper;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Clients ride through the loss of a server (DESIGN §11): calls are retried with backoff until the
 * slot is served again, at-most-once calls carry the same call id on every try, and the
 * application sees no error — not from a kill -9, not from a cross-slot rename whose destination
 * went away in the middle.
 */
class RideThroughTest {
  private static final int WRITERS = 3;
  private static final int KILLS = 3;

  /** One acknowledged operation of a writer: the path it left behind. */
  private record Acked(String path, boolean directory) {}

  @Test
  @Timeout(value = 6, unit = TimeUnit.MINUTES)
  void aSyncWorkloadSeesNoErrorThroughKillsOfItsServer() throws Exception {
    Path work = TestData.newDir("ride-through");
    try (EmbeddedZooKeeper zk = new EmbeddedZooKeeper(work.resolve("zookeeper").toFile(), 0)) {
      Map<String, String> conf = new LinkedHashMap<>();
      conf.put("indexfs.server.dir", work.resolve("slot-0").toString());
      conf.put("indexfs.zookeeper.quorum", zk.connectString());
      conf.put(IndexFsConfig.SECURITY_ZOOKEEPER_DIGEST.name(), TestData.SERVERS_DIGEST);
      conf.put("indexfs.cluster.name", "ride");
      conf.put("indexfs.zookeeper.session-timeout-ms", "2000");
      conf.put("indexfs.data.uri", work.resolve("data").toUri().toString());
      Path log = work.resolve("server.log");
      Queue<Acked> acked = new ConcurrentLinkedQueue<>();
      Queue<Throwable> errors = new ConcurrentLinkedQueue<>();
      AtomicBoolean stop = new AtomicBoolean();
      AtomicLong renames = new AtomicLong();
      ServerProcess server = ServerProcess.start(conf, log);
      try (IndexFsClient client = TestData.client(zk.connectString(), "ride")) {
        List<Thread> writers = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
          String dir = "/w" + w;
          Thread t = new Thread(() -> write(client, dir, acked, errors, stop, renames), "writer-" + w);
          writers.add(t);
          t.start();
        }
        for (int kill = 0; kill < KILLS; kill++) {
          long before = acked.size();
          while (acked.size() < before + 300 && errors.isEmpty()) {
            Thread.sleep(10);
          }
          server.kill();
          Thread.sleep(500);
          server = ServerProcess.start(conf, log);
        }
        long before = acked.size();
        while (acked.size() < before + 300 && errors.isEmpty()) {
          Thread.sleep(10);
        }
        stop.set(true);
        for (Thread t : writers) {
          t.join(120_000);
          assertFalse(t.isAlive());
        }
        assertTrue(errors.isEmpty(), () -> errors.size() + " errors reached the application, e.g. " + errors.peek());
        assertTrue(renames.get() > 0);

        Set<String> listed = new HashSet<>();
        for (int w = 0; w < WRITERS; w++) {
          for (FileStatus s : client.listAll("/w" + w)) {
            listed.add("/w" + w + "/" + s.getName());
          }
        }
        Set<String> expected = new HashSet<>();
        for (Acked a : acked) {
          expected.add(a.path());
        }
        assertEquals(expected, listed, "exactly the acknowledged entries, each once");
        System.out.printf("Ride-through: %d acknowledged operations over %d kills, 0 errors%n", acked.size(), KILLS);
      } finally {
        server.close();
      }
    }
  }

  /**
   * Per step: a directory, a file created and closed, and that file renamed (the name the listing
   * must show). A rename applied twice would answer false, a create applied twice would fail: both
   * count as errors here.
   */
  private static void write(IndexFsClient client, String dir, Queue<Acked> acked, Queue<Throwable> errors,
      AtomicBoolean stop, AtomicLong renames) {
    try {
      client.mkdirs(dir, 0755);
      for (int i = 0; !stop.get(); i++) {
        String d = dir + "/d" + i;
        client.mkdirs(d, 0755);
        acked.add(new Acked(d, true));
        String f = dir + "/f" + i;
        FileStatus created = client.create(f, 0644, false, 1, 1 << 20, false);
        client.complete(f, created.getInodeId(), 0, new byte[0], null);
        String g = dir + "/g" + i;
        if (!client.rename(f, g)) {
          throw new AssertionError("rename " + f + " answered false");
        }
        renames.incrementAndGet();
        acked.add(new Acked(g, false));
      }
    } catch (Throwable e) {
      errors.add(e);
    }
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void aCrossSlotRenameWhoseDestinationGoesAwayFinishesWhenItIsBack() throws Exception {
    Path work = TestData.newDir("unsettled");
    try (LocalCluster cluster = LocalCluster.builder(work).clusterName("unsettled").servers(3)
        .set(IndexFsConfig.HOME_SYNC_INTERVAL_MS.name(), "200").start();
         IndexFsClient client = Slots.client(cluster, TestData.USER, List.of())) {
      FileStatus s = Slots.dirNotOn(client, "/", "src", 0);
      FileStatus d = Slots.dirNotOn(client, "/", "dst", s.getZerothSlot());
      if (d.getZerothSlot() == 0) {
        d = Slots.dirNotOn(client, "/", "dst-b", 0);
      }
      String src = "/" + s.getName() + "/f";
      String dst = "/" + d.getName() + "/f";
      TestData.createClosed(client, src);
      client.getFileStatus("/" + d.getName());

      int dstSlot = d.getZerothSlot();
      cluster.stopServer(dstSlot);
      Thread restarter = new Thread(() -> {
        try {
          Thread.sleep(3_000);
          cluster.restartServer(dstSlot);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      restarter.start();
      long started = System.nanoTime();
      assertTrue(client.rename(src, dst), "the rename waits for its destination and lands once");
      restarter.join();
      System.out.printf("Unsettled rename answered true %.1f s after it was called%n", (System.nanoTime() - started) / 1e9);
      assertTrue(client.listAll("/" + s.getName()).isEmpty());
      assertEquals(1, client.listAll("/" + d.getName()).size());
    }
  }
}
