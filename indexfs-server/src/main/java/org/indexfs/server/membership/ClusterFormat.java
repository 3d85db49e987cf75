package org.indexfs.server.membership;

import java.io.IOException;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.indexfs.common.ClusterConfig;
import org.indexfs.common.ClusterPaths;

/**
 * Formatting a cluster: records its slot count once in ZooKeeper. The slot count is part of every
 * placement decision (partition i lives on slot (zeroth + i) mod N), so it can never change
 * under existing data; formatting again with the same count is a no-op.
 */
public final class ClusterFormat {
  private ClusterFormat() {}

  /** Formats {@code cluster} with {@code slots}, or confirms an existing format with the same count. */
  public static ClusterConfig format(CuratorFramework curator, String cluster, int slots) throws IOException {
    ClusterConfig wanted = ClusterConfig.ofSlots(slots);
    try {
      curator.create().creatingParentsIfNeeded().forPath(ClusterPaths.config(cluster), wanted.encode());
      return wanted;
    } catch (KeeperException.NodeExistsException e) {
      ClusterConfig existing = read(curator, cluster);
      if (existing.slots() != slots) {
        throw new IOException("Cluster '" + cluster + "' is already formatted with " + existing.slots()
            + " slots; it cannot be reformatted with " + slots);
      }
      return existing;
    } catch (Exception e) {
      throw new IOException("Cannot format cluster '" + cluster + "': " + e.getMessage(), e);
    }
  }

  /** The cluster's config, or an IOException saying it was never formatted. */
  public static ClusterConfig read(CuratorFramework curator, String cluster) throws IOException {
    try {
      return ClusterConfig.decode(curator.getData().forPath(ClusterPaths.config(cluster)));
    } catch (KeeperException.NoNodeException e) {
      throw new IOException("Cluster '" + cluster + "' is not formatted: run 'bin/indexfs format --slots N'");
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("Cannot read the config of cluster '" + cluster + "': " + e.getMessage(), e);
    }
  }
}
