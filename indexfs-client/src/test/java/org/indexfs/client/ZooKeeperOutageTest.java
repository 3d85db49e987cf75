package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.FileStatus;
import org.indexfs.server.IndexFsServer;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Servers heal themselves (DESIGN §11): when ZooKeeper goes away every slot server stops answering
 * at once (NOT_SERVING, its port still open), and when ZooKeeper comes back — here after 30 s, twice
 * the session timeout, so every session has expired — each one takes its lease again and serves,
 * without any restart: the same server objects, the same data.
 */
class ZooKeeperOutageTest {
  private static final int SLOTS = 3;

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void aThirtySecondZooKeeperOutageEndsWithEverySlotServingAgainWithoutARestart() throws Exception {
    Path work = TestData.newDir("zk-outage");
    try (LocalCluster cluster = LocalCluster.builder(work).clusterName("outage").servers(SLOTS)
        .set(IndexFsConfig.ZOOKEEPER_SESSION_TIMEOUT_MS.name(), "15000")
        .set(IndexFsConfig.HOME_SYNC_INTERVAL_MS.name(), "200").start();
         IndexFsClient client = Slots.client(cluster, TestData.USER, List.of())) {
      List<String> dirs = new ArrayList<>();
      // Files of the root live on slot 0 (which placement, balancing entry counts, avoids for new
      // directories); one directory homed on each other slot.
      dirs.add("");
      for (int slot = 1; slot < SLOTS; slot++) {
        dirs.add(Slots.dirOn(client, "/", "d" + slot + "-", slot));
      }
      for (String d : dirs) {
        TestData.createClosed(client, d + "/before");
      }
      List<IndexFsServer> servers = new ArrayList<>();
      for (int slot = 0; slot < SLOTS; slot++) {
        servers.add(cluster.server(slot));
      }

      cluster.stopZooKeeper();
      long stopped = System.nanoTime();
      for (int slot = 0; slot < SLOTS; slot++) {
        IndexFsServer s = servers.get(slot);
        waitFor(() -> !s.serving(), 20, "slot " + slot + " to stop serving");
      }
      double fencedAfter = (System.nanoTime() - stopped) / 1e9;
      // The port is open and answers, but with NOT_SERVING, to reads as to writes (a client that
      // does not retry shows it; an ordinary one keeps retrying).
      // (Not closed: it shares the other client's connection.)
      IndexFsClient impatient = new IndexFsClient(client.connection(), client.caller(), 10_000, 0);
      IndexFsException refused = org.junit.jupiter.api.Assertions.assertThrows(IndexFsException.class,
          () -> impatient.getFileStatus(dirs.get(1) + "/before"));
      assertEquals(Code.NOT_SERVING, refused.code(), refused.getMessage());

      Thread.sleep(Math.max(0, 30_000 - (System.nanoTime() - stopped) / 1_000_000));
      cluster.startZooKeeper();
      long restarted = System.nanoTime();
      for (int slot = 0; slot < SLOTS; slot++) {
        IndexFsServer s = servers.get(slot);
        waitFor(s::serving, 90, "slot " + slot + " to serve again");
      }
      double servingAfter = (System.nanoTime() - restarted) / 1e9;
      System.out.printf("ZooKeeper outage: every slot fenced %.1f s after ZooKeeper stopped, serving again %.1f s"
          + " after it came back%n", fencedAfter, servingAfter);

      for (int slot = 0; slot < SLOTS; slot++) {
        assertSame(servers.get(slot), cluster.server(slot), "slot " + slot + " was not restarted");
      }
      // Every slot answers reads and writes again, with everything written before the outage.
      for (String d : dirs) {
        FileStatus before = retrying(() -> client.getFileStatus(d + "/before"));
        assertFalse(before.getUnderConstruction());
        retrying(() -> {
          TestData.createClosed(client, d + "/after");
          return null;
        });
        client.getFileStatus(d + "/after");
      }
    }
  }

  private interface Call<T> {
    T run() throws IOException;
  }

  /** The client learns the slots' new sessions through ZooKeeper a moment after the servers do. */
  private static <T> T retrying(Call<T> call) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      try {
        return call.run();
      } catch (IOException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(200);
      }
    }
  }

  private static void waitFor(java.util.function.BooleanSupplier condition, int seconds, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertTrue(condition.getAsBoolean(), "waited " + seconds + " s for " + what);
  }
}
