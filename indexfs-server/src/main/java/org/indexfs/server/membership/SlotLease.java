package org.indexfs.server.membership;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;
import org.indexfs.common.ClusterConfig;
import org.indexfs.common.ClusterPaths;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server's hold on its slot (DESIGN §8): a Curator {@link LeaderLatch} at
 * {@code /indexfs/<c>/leases/<k>} makes at most one process the slot's owner; the owner then
 * publishes its address at {@code /indexfs/<c>/slots/<k>}, where clients find it. A process that
 * loses the latch (its ZooKeeper session expired) is told to stop serving at once: fencing.
 * A second process for the same slot waits as a standby until the lease is free.
 */
public final class SlotLease implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SlotLease.class);

  private final CuratorFramework curator;
  private final LeaderLatch latch;
  private final ClusterConfig config;
  private PersistentNode address;

  /**
   * Acquires slot {@code slot} of {@code cluster}, waiting up to {@code waitMs} for a previous
   * owner's lease to end, and publishes {@code hostPort}. {@code onLost} runs if the lease is lost.
   * A cluster that was never formatted is formatted with one slot when slot 0 starts (the
   * single-server case); otherwise it must be formatted first.
   */
  public SlotLease(String zkQuorum, int sessionTimeoutMs, String cluster, int slot, String hostPort, long waitMs,
      Runnable onLost) throws IOException {
    curator = CuratorFrameworkFactory.builder()
        .connectString(zkQuorum)
        .sessionTimeoutMs(sessionTimeoutMs)
        .connectionTimeoutMs(15_000)
        .retryPolicy(new BoundedExponentialBackoffRetry(100, 2_000, 5))
        .build();
    curator.start();
    LeaderLatch acquired = null;
    try {
      if (!curator.blockUntilConnected(30, TimeUnit.SECONDS)) {
        throw new IOException("Cannot reach ZooKeeper at " + zkQuorum);
      }
      config = slot == 0 ? formatIfNew(cluster) : ClusterFormat.read(curator, cluster);
      if (slot < 0 || slot >= config.slots()) {
        throw new IOException("Cluster '" + cluster + "' has slots 0.." + (config.slots() - 1) + "; there is no slot " + slot);
      }
      acquired = new LeaderLatch(curator, ClusterPaths.lease(cluster, slot), hostPort);
      acquired.start();
      if (!acquired.await(waitMs, TimeUnit.MILLISECONDS)) {
        throw new IOException("Slot " + slot + " of cluster '" + cluster + "' is held by another server ("
            + describeLeader(acquired) + ") for more than " + waitMs + " ms");
      }
      acquired.addListener(new LeaderLatchListener() {
        @Override
        public void isLeader() {}

        @Override
        public void notLeader() {
          LOG.error("Lost the lease of slot {} (ZooKeeper session lost): this server stops serving it", slot);
          onLost.run();
        }
      });
      address = new PersistentNode(curator, CreateMode.EPHEMERAL, false, ClusterPaths.slot(cluster, slot),
          hostPort.getBytes(StandardCharsets.UTF_8));
      address.start();
      if (!address.waitForInitialCreate(30, TimeUnit.SECONDS)) {
        throw new IOException("Could not publish the address of slot " + slot);
      }
    } catch (IOException e) {
      closeQuietly(acquired);
      curator.close();
      throw e;
    } catch (Exception e) {
      closeQuietly(acquired);
      curator.close();
      throw new IOException("Cannot take slot " + slot + ": " + e.getMessage(), e);
    }
    latch = acquired;
    LOG.info("Slot {} of cluster {} ({} slots) leased and published at {}", slot, cluster, config.slots(), hostPort);
  }

  private ClusterConfig formatIfNew(String cluster) throws IOException {
    try {
      return ClusterFormat.read(curator, cluster);
    } catch (IOException notFormatted) {
      return ClusterFormat.format(curator, cluster, 1);
    }
  }

  private static String describeLeader(LeaderLatch latch) {
    try {
      return latch.getLeader().getId();
    } catch (Exception e) {
      return "unknown";
    }
  }

  /** The session this server holds its slot with; peers and placement read the registry through it. */
  public CuratorFramework curator() {
    return curator;
  }

  public ClusterConfig clusterConfig() {
    return config;
  }

  private static void closeQuietly(LeaderLatch latch) {
    if (latch == null) {
      return;
    }
    try {
      latch.close(LeaderLatch.CloseMode.SILENT);
    } catch (IOException e) {
      LOG.warn("Could not release a slot latch", e);
    }
  }

  @Override
  public void close() {
    try {
      // Without a connection there is nothing to clean: the address node is ephemeral and dies with
      // the session; trying would only wait out the retry policy.
      if (address != null && curator.getZookeeperClient().isConnected()) {
        address.close();
      }
    } catch (IOException e) {
      LOG.warn("Could not remove the slot's address", e);
    } finally {
      closeQuietly(latch);
      curator.close();
    }
  }
}
