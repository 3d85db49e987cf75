package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.indexfs.common.ClusterPaths;
import org.indexfs.server.local.EmbeddedZooKeeper;
import org.indexfs.server.security.ServerZooKeeper;
import org.junit.jupiter.api.Test;

/**
 * The remembered slot map (DESIGN §10, fast first call): what one client learned of where a slot is
 * served, the next client of the same user uses without waiting for ZooKeeper — also when the first
 * learned only an address and never the slot count (a {@code hadoop fs -ls /} needs slot 0 alone;
 * such a client used to leave no map behind, so every fresh client waited for its ZooKeeper session).
 * What the slot watch tells is believed, and remembered, once the slot map proved to be the servers'.
 */
class SlotDirectoryTest {
  /** A ZooKeeper nobody answers at: any read through it fails after {@code WAIT_MS}. */
  private static final String NOBODY = "127.0.0.1:1";
  private static final long WAIT_MS = 300;

  @Test
  void anAddressLearnedAloneIsRememberedForTheNextClient() throws Exception {
    String cluster = "remembered-" + UUID.randomUUID();
    Path dir = TestData.newDir("zk");
    try (EmbeddedZooKeeper zk = new EmbeddedZooKeeper(dir.toFile(), 0);
        CuratorFramework servers = ServerZooKeeper.digest("indexfs:slot-directory-test").connect(zk.connectString(), 10_000);
        CuratorFramework client = CuratorFrameworkFactory.newClient(zk.connectString(), new RetryOneTime(100))) {
      servers.create().creatingParentsIfNeeded().forPath(ClusterPaths.slots(cluster));
      client.start();
      client.blockUntilConnected(10, TimeUnit.SECONDS);
      ZooKeeperSession first = new ZooKeeperSession(NOBODY, 300, c -> {});
      ZooKeeperSession second = new ZooKeeperSession(NOBODY, 300, c -> {});
      first.start(0);
      second.start(0);
      try {
        SlotDirectory seen = new SlotDirectory(first, NOBODY, cluster, WAIT_MS, "");
        assertThrows(IOException.class, () -> seen.address(0), "nothing known yet: ZooKeeper is asked");
        // As the slot watch tells it, on its session.
        seen.update(client, 0, "10.1.2.3:4567".getBytes(StandardCharsets.UTF_8));

        SlotDirectory next = new SlotDirectory(second, NOBODY, cluster, WAIT_MS, "");
        assertEquals(new InetSocketAddress("10.1.2.3", 4567), next.address(0), "no ZooKeeper needed");
        assertThrows(IOException.class, () -> next.address(1), "a slot never seen is still asked for");
      } finally {
        first.closeLater(() -> {});
        second.closeLater(() -> {});
      }
    }
  }

  @Test
  void whatASlotMapOthersCouldWriteSaysIsNeitherBelievedNorRemembered() throws Exception {
    String cluster = "open-" + UUID.randomUUID();
    Path dir = TestData.newDir("zk");
    try (EmbeddedZooKeeper zk = new EmbeddedZooKeeper(dir.toFile(), 0);
        CuratorFramework anyone = CuratorFrameworkFactory.newClient(zk.connectString(), new RetryOneTime(100))) {
      anyone.start();
      anyone.blockUntilConnected(10, TimeUnit.SECONDS);
      anyone.create().creatingParentsIfNeeded().forPath(ClusterPaths.slots(cluster)); // world:anyone:cdrwa
      ZooKeeperSession first = new ZooKeeperSession(NOBODY, 300, c -> {});
      ZooKeeperSession second = new ZooKeeperSession(NOBODY, 300, c -> {});
      first.start(0);
      second.start(0);
      try {
        SlotDirectory seen = new SlotDirectory(first, NOBODY, cluster, WAIT_MS, "");
        seen.update(anyone, 0, "10.6.6.6:6666".getBytes(StandardCharsets.UTF_8));
        assertThrows(IOException.class, () -> seen.address(0), "not believed: ZooKeeper is asked");
        SlotDirectory next = new SlotDirectory(second, NOBODY, cluster, WAIT_MS, "");
        assertThrows(IOException.class, () -> next.address(0), "and not remembered");
      } finally {
        first.closeLater(() -> {});
        second.closeLater(() -> {});
      }
    }
  }
}
