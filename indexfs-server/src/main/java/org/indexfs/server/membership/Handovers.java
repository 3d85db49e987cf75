package org.indexfs.server.membership;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.indexfs.common.ClusterPaths;

/**
 * Planned handovers (bin/indexfs admin -handover, DESIGN §11): {@code /indexfs/<c>/handover/<k>}
 * names the server that should take slot k next and until when; a waiting server that wins the
 * lease but is not named lets it pass on. Without a name, any waiting server may take it.
 */
public final class Handovers {
  private Handovers() {}

  /** Names {@code target} (a server's name, or "" for any) as slot {@code slot}'s next owner for {@link SlotLease#HANDOVER_MS}. */
  public static void name(CuratorFramework curator, String cluster, int slot, String target) throws IOException {
    byte[] t = target.getBytes(StandardCharsets.UTF_8);
    byte[] value = ByteBuffer.allocate(8 + t.length).putLong(System.currentTimeMillis() + SlotLease.HANDOVER_MS)
        .put(t).array();
    try {
      try {
        curator.create().creatingParentContainersIfNeeded().forPath(ClusterPaths.handover(cluster, slot), value);
      } catch (KeeperException.NodeExistsException e) {
        curator.setData().forPath(ClusterPaths.handover(cluster, slot), value);
      }
    } catch (Exception e) {
      throw new IOException("Cannot record the handover of slot " + slot + ": " + e.getMessage(), e);
    }
  }

  /** The named next owner of the slot, or null (none, any, or the handover expired). */
  static String target(CuratorFramework curator, String cluster, int slot) throws IOException {
    byte[] v;
    try {
      v = curator.getData().forPath(ClusterPaths.handover(cluster, slot));
    } catch (KeeperException.NoNodeException e) {
      return null;
    } catch (Exception e) {
      throw new IOException("Cannot read the handover of slot " + slot + ": " + e.getMessage(), e);
    }
    ByteBuffer b = ByteBuffer.wrap(v);
    long until = b.getLong();
    String target = new String(v, 8, v.length - 8, StandardCharsets.UTF_8);
    return until < System.currentTimeMillis() || target.isEmpty() ? null : target;
  }

  /** The handover happened (or there was none): forget it. */
  static void done(CuratorFramework curator, String cluster, int slot) {
    try {
      curator.delete().forPath(ClusterPaths.handover(cluster, slot));
    } catch (Exception none) {
      // No handover was named, or it is already gone.
    }
  }
}
