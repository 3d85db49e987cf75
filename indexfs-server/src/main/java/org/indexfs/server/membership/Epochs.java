package org.indexfs.server.membership;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.indexfs.common.ClusterPaths;

/**
 * Slot epochs in ZooKeeper ({@code /indexfs/<c>/epochs/<k>}, an 8-byte counter). A process that
 * becomes a slot's writer bumps it with a compare-and-set, so two writers never share an epoch and
 * everything a writer stamps with its epoch (journal records, DESIGN §11) says who wrote it.
 */
public final class Epochs {
  private Epochs() {}

  /** The slot's current epoch (0: no writer ever took it). */
  public static long read(CuratorFramework curator, String cluster, int slot) throws IOException {
    try {
      return ByteBuffer.wrap(curator.getData().forPath(ClusterPaths.epoch(cluster, slot))).getLong();
    } catch (KeeperException.NoNodeException e) {
      return 0;
    } catch (Exception e) {
      throw new IOException("Cannot read the epoch of slot " + slot + ": " + e.getMessage(), e);
    }
  }

  /** Makes the slot's epoch one higher than any before and returns it. */
  public static long bump(CuratorFramework curator, String cluster, int slot) throws IOException {
    String path = ClusterPaths.epoch(cluster, slot);
    try {
      while (true) {
        Stat stat = new Stat();
        long current;
        try {
          current = ByteBuffer.wrap(curator.getData().storingStatIn(stat).forPath(path)).getLong();
        } catch (KeeperException.NoNodeException none) {
          try {
            curator.create().creatingParentContainersIfNeeded().forPath(path, encode(1));
            return 1;
          } catch (KeeperException.NodeExistsException raced) {
            continue;
          }
        }
        try {
          curator.setData().withVersion(stat.getVersion()).forPath(path, encode(current + 1));
          return current + 1;
        } catch (KeeperException.BadVersionException raced) {
          // Another writer bumped it first: read again.
        }
      }
    } catch (Exception e) {
      throw new IOException("Cannot bump the epoch of slot " + slot + ": " + e.getMessage(), e);
    }
  }

  private static byte[] encode(long epoch) {
    return ByteBuffer.allocate(8).putLong(epoch).array();
  }
}
