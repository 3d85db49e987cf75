package org.indexfs.server.membership;

import java.nio.charset.StandardCharsets;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.indexfs.common.ClusterPaths;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes "slot k is served at host:port" in ZooKeeper (DESIGN §8) as an ephemeral node that
 * Curator re-creates after session loss, and records the cluster config on first start.
 * Clients discover servers here; nothing else needs to know a server's address.
 */
public final class SlotRegistration implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SlotRegistration.class);

  private final CuratorFramework curator;
  private final PersistentNode node;

  public SlotRegistration(String zkQuorum, String cluster, int slot, String address) throws Exception {
    curator = CuratorFrameworkFactory.builder()
        .connectString(zkQuorum)
        .sessionTimeoutMs(15_000)
        .connectionTimeoutMs(15_000)
        .retryPolicy(new ExponentialBackoffRetry(200, 10))
        .build();
    curator.start();
    if (!curator.blockUntilConnected(30, java.util.concurrent.TimeUnit.SECONDS)) {
      curator.close();
      throw new java.io.IOException("Cannot reach ZooKeeper at " + zkQuorum);
    }
    ensureConfig(cluster);
    String path = ClusterPaths.slot(cluster, slot);
    // A previous owner killed with SIGKILL leaves its ephemeral node until its session expires;
    // this server was told to own the slot, so it takes the node over at once.
    try {
      curator.delete().forPath(path);
      LOG.info("Replaced a stale registration of slot {}", slot);
    } catch (KeeperException.NoNodeException e) {
      // nothing registered: the normal case
    }
    node = new PersistentNode(curator, CreateMode.EPHEMERAL, false, path,
        address.getBytes(StandardCharsets.UTF_8));
    node.start();
    if (!node.waitForInitialCreate(30, java.util.concurrent.TimeUnit.SECONDS)) {
      close();
      throw new java.io.IOException("Could not register slot " + slot + " in ZooKeeper");
    }
    LOG.info("Slot {} of cluster {} registered at {}", slot, cluster, address);
  }

  private void ensureConfig(String cluster) throws Exception {
    String config = ClusterPaths.config(cluster);
    try {
      curator.create().creatingParentsIfNeeded()
          .forPath(config, "slots=1\nformat=1\n".getBytes(StandardCharsets.UTF_8));
    } catch (KeeperException.NodeExistsException e) {
      // formatted before
    }
  }

  @Override
  public void close() {
    try {
      if (node != null) {
        node.close();
      }
    } catch (java.io.IOException e) {
      LOG.warn("Could not remove slot registration", e);
    } finally {
      curator.close();
    }
  }
}
