package org.indexfs.server.membership;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.retry.RetryOneTime;
import org.indexfs.common.ClusterPaths;
import org.indexfs.server.local.EmbeddedZooKeeper;
import org.indexfs.server.security.ServerZooKeeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Slot ownership through ZooKeeper: one owner per slot, a fixed slot count, nothing unformatted. */
class SlotLeaseTest {
  private static final ServerZooKeeper SERVERS = servers();
  private EmbeddedZooKeeper zk;
  private Path zkDir;
  private CuratorFramework curator;

  @BeforeEach
  void start() throws Exception {
    Path base = Path.of(System.getProperty("test.build.data", "target/test-data"));
    Files.createDirectories(base);
    zkDir = Files.createTempDirectory(base, "zk-");
    zk = new EmbeddedZooKeeper(zkDir.toFile(), 0);
    // As the servers: it formats clusters and bumps epochs as another server would.
    curator = SERVERS.builder(zk.connectString()).retryPolicy(new RetryOneTime(100)).build();
    curator.start();
    assertTrue(curator.blockUntilConnected(10, TimeUnit.SECONDS));
  }

  private static ServerZooKeeper servers() {
    try {
      return ServerZooKeeper.digest("indexfs:slot-lease-test");
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @AfterEach
  void stop() {
    curator.close();
    zk.close();
  }

  /** What a lease holder was told, in order. */
  private static final class Told implements SlotLease.Holder {
    final java.util.List<String> events = new java.util.concurrent.CopyOnWriteArrayList<>();

    @Override
    public void lost(String why) {
      events.add("lost");
    }

    @Override
    public void regained() {
      events.add("regained");
    }

    @Override
    public void superseded(long epoch) {
      events.add("superseded " + epoch);
    }

    void await(String event) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!events.contains(event) && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertTrue(events.contains(event), "expected '" + event + "', was told " + events);
    }
  }

  /** Stops ZooKeeper, waits until {@code told} hears of it, and starts it again on the same port and data. */
  private void zooKeeperOutage(Told told) throws Exception {
    int port = zk.port();
    zk.close();
    told.await("lost");
    zk = new EmbeddedZooKeeper(zkDir.toFile(), port);
  }

  @Test
  void aLeaseInDoubtComesBackToTheSameWriterWhenNobodyTookOver() throws Exception {
    Told told = new Told();
    try (SlotLease held = new SlotLease(SERVERS, zk.connectString(), 4_000, "c5", 0, "127.0.0.1:5", 5_000, told)) {
      held.publish("127.0.0.1:5");
      long epoch = held.epoch();
      assertEquals(epoch, Epochs.read(curator, "c5", 0));
      zooKeeperOutage(told);
      told.await("regained");
      assertEquals(java.util.List.of("lost", "regained"), told.events);
      assertEquals(epoch, Epochs.read(curator, "c5", 0), "resuming takes no new epoch");
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (curator.checkExists().forPath(ClusterPaths.slot("c5", 0)) == null && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertEquals("127.0.0.1:5", new String(curator.getData().forPath(ClusterPaths.slot("c5", 0)), StandardCharsets.UTF_8));
    }
  }

  @Test
  void aWriterWhoseSlotWasTakenOverMeanwhileIsToldItWasSuperseded() throws Exception {
    Told told = new Told();
    try (SlotLease held = new SlotLease(SERVERS, zk.connectString(), 4_000, "c6", 0, "127.0.0.1:6", 5_000, told)) {
      // Another writer took the slot (and a new epoch) in a way this one cannot see until its session
      // ends: then it must not resume.
      long taken = Epochs.bump(curator, "c6", 0);
      assertEquals(held.epoch() + 1, taken);
      held.curator().getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
      told.await("lost");
      told.await("superseded " + taken);
      assertFalse(told.events.contains("regained"), "a superseded writer must not resume: " + told.events);
    }
  }

  @Test
  void everyNewWriterOfASlotTakesAHigherEpoch() throws Exception {
    long first;
    try (SlotLease a = lease("c7", 0, "127.0.0.1:7", 5_000, () -> {})) {
      first = a.epoch();
    }
    try (SlotLease b = lease("c7", 0, "127.0.0.1:8", 5_000, () -> {})) {
      assertEquals(first + 1, b.epoch());
    }
  }

  private SlotLease lease(String cluster, int slot, String address, long waitMs, Runnable onLost) throws IOException {
    SlotLease lease = new SlotLease(SERVERS, zk.connectString(), 5_000, cluster, slot, address, waitMs, new SlotLease.Holder() {
      @Override
      public void lost(String why) {
        onLost.run();
      }

      @Override
      public void regained() {}

      @Override
      public void superseded(long epoch) {}
    });
    lease.publish(address);
    return lease;
  }

  @Test
  void aSecondServerForTheSameSlotWaitsAndGivesUpWhileTheFirstHoldsIt() throws Exception {
    try (SlotLease first = lease("c1", 0, "127.0.0.1:1111", 5_000, () -> {})) {
      IOException e = assertThrows(IOException.class, () -> lease("c1", 0, "127.0.0.1:2222", 1_000, () -> {}));
      assertTrue(e.getMessage().contains("held by another server (127.0.0.1:1111)"), e.getMessage());
      assertEquals("127.0.0.1:1111", new String(curator.getData().forPath(ClusterPaths.slot("c1", 0)), StandardCharsets.UTF_8));
    }
    // Released: the next server takes the slot and publishes itself.
    try (SlotLease second = lease("c1", 0, "127.0.0.1:2222", 5_000, () -> {})) {
      assertEquals("127.0.0.1:2222", new String(curator.getData().forPath(ClusterPaths.slot("c1", 0)), StandardCharsets.UTF_8));
    }
  }

  @Test
  void slotZeroOfANewClusterFormatsItWithOneSlot() throws Exception {
    try (SlotLease only = lease("single", 0, "127.0.0.1:1", 5_000, () -> {})) {
      assertEquals(1, only.clusterConfig().slots());
    }
  }

  @Test
  void otherSlotsRequireAFormattedClusterAndASlotWithinItsCount() throws Exception {
    IOException unformatted = assertThrows(IOException.class, () -> lease("c2", 1, "127.0.0.1:1", 1_000, () -> {}));
    assertTrue(unformatted.getMessage().contains("not formatted"), unformatted.getMessage());
    ClusterFormat.format(curator, "c2", 3);
    try (SlotLease two = lease("c2", 2, "127.0.0.1:3", 5_000, () -> {})) {
      assertEquals(3, two.clusterConfig().slots());
    }
    IOException beyond = assertThrows(IOException.class, () -> lease("c2", 3, "127.0.0.1:4", 1_000, () -> {}));
    assertTrue(beyond.getMessage().contains("there is no slot 3"), beyond.getMessage());
  }

  @Test
  void theSlotCountCannotChangeOnceFormatted() throws Exception {
    assertEquals(4, ClusterFormat.format(curator, "c3", 4).slots());
    assertEquals(4, ClusterFormat.format(curator, "c3", 4).slots(), "formatting again with the same count is a no-op");
    IOException e = assertThrows(IOException.class, () -> ClusterFormat.format(curator, "c3", 8));
    assertTrue(e.getMessage().contains("already formatted with 4 slots"), e.getMessage());
  }

  @Test
  void losingTheSessionFencesTheServer() throws Exception {
    AtomicBoolean fenced = new AtomicBoolean();
    try (SlotLease held = lease("c4", 0, "127.0.0.1:1", 5_000, () -> fenced.set(true))) {
      assertFalse(fenced.get());
      // Stopping ZooKeeper ends the lease holder's session view: the latch reports lost leadership.
      zk.close();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!fenced.get() && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertTrue(fenced.get(), "the server was told to stop serving");
    }
  }
}
