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
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.indexfs.common.ClusterPaths;
import org.indexfs.server.local.EmbeddedZooKeeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Slot ownership through ZooKeeper: one owner per slot, a fixed slot count, nothing unformatted. */
class SlotLeaseTest {
  private EmbeddedZooKeeper zk;
  private CuratorFramework curator;

  @BeforeEach
  void start() throws Exception {
    Path base = Path.of(System.getProperty("test.build.data", "target/test-data"));
    Files.createDirectories(base);
    zk = new EmbeddedZooKeeper(Files.createTempDirectory(base, "zk-").toFile(), 0);
    curator = CuratorFrameworkFactory.newClient(zk.connectString(), new RetryOneTime(100));
    curator.start();
    assertTrue(curator.blockUntilConnected(10, TimeUnit.SECONDS));
  }

  @AfterEach
  void stop() {
    curator.close();
    zk.close();
  }

  private SlotLease lease(String cluster, int slot, String address, long waitMs, Runnable onLost) throws IOException {
    return new SlotLease(zk.connectString(), 5_000, cluster, slot, address, waitMs, onLost);
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
