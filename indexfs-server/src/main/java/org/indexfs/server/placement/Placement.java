package org.indexfs.server.placement;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.random.RandomGenerator;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.indexfs.common.ClusterPaths;
import org.indexfs.server.ns.Namespace;
import org.indexfs.server.peer.Peers;

/**
 * Chooses a new directory's home slot by power of two choices over the slots' entry counts
 * (DESIGN §3): two slots at random, the emptier wins. Each server publishes its count in ZooKeeper
 * every few seconds and reads the others'; between refreshes its own choices are counted locally,
 * so a burst of mkdirs does not pile onto one slot.
 */
public final class Placement {
  private final Namespace ns;
  private final Peers peers;
  private volatile AtomicLongArray loads = new AtomicLongArray(1);

  public Placement(Namespace ns, Peers peers) {
    this.ns = ns;
    this.peers = peers;
  }

  /** The home slot for a new directory. */
  public int chooseHome() {
    int n = peers.slotCount();
    AtomicLongArray l = loads;
    if (n <= 1 || l.length() != n) {
      return ns.slot();
    }
    return choose(l, ThreadLocalRandom.current());
  }

  /**
   * Power of two choices over {@code loads} (one count per slot, at least two): two slots at random,
   * drawn independently as in the textbook scheme, the one with fewer entries wins and is counted one
   * more. (Two distinct slots made two-slot clusters deterministic: the slot holding the root, whose
   * entries every top-level mkdir adds to, never became a home again.) Pure, so the load-balance
   * simulator of {@code bench scale} runs exactly this choice.
   */
  public static int choose(AtomicLongArray loads, RandomGenerator random) {
    int n = loads.length();
    int a = random.nextInt(n);
    int b = random.nextInt(n);
    int chosen = loads.get(a) <= loads.get(b) ? a : b;
    loads.incrementAndGet(chosen);
    return chosen;
  }

  /** Publishes this slot's entry count and reads every slot's. */
  public void refresh() throws IOException {
    CuratorFramework curator = peers.curator();
    int n = peers.slotCount();
    if (curator == null || n <= 1) {
      return;
    }
    String cluster = peers.cluster();
    byte[] mine = Long.toString(Math.max(0, ns.store().estimatedEntries())).getBytes(StandardCharsets.UTF_8);
    try {
      try {
        curator.setData().forPath(ClusterPaths.load(cluster, ns.slot()), mine);
      } catch (KeeperException.NoNodeException e) {
        curator.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT)
            .forPath(ClusterPaths.load(cluster, ns.slot()), mine);
      }
      AtomicLongArray fresh = new AtomicLongArray(n);
      for (int s = 0; s < n; s++) {
        try {
          fresh.set(s, Long.parseLong(new String(curator.getData().forPath(ClusterPaths.load(cluster, s)),
              StandardCharsets.UTF_8)));
        } catch (KeeperException.NoNodeException e) {
          fresh.set(s, 0);
        }
      }
      loads = fresh;
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("Cannot refresh slot loads: " + e.getMessage(), e);
    }
  }
}
