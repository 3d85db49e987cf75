package org.indexfs.client;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.KeeperException;
import org.indexfs.client.cache.ResolutionCache;
import org.indexfs.common.ClusterConfig;
import org.indexfs.common.ClusterPaths;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.rpc.RpcConnection;

/**
 * A process's link to one cluster: the ZooKeeper session used to discover servers and one
 * pipelined connection per server. Shared by every {@link IndexFsClient} of that cluster in the
 * process (Hadoop creates a FileSystem per user) and closed when the last one releases it.
 */
public final class ClusterConnection implements AutoCloseable {
  private static final Map<String, ClusterConnection> SHARED = new HashMap<>();

  private final String key;
  private final String cluster;
  private final CuratorFramework curator;
  private final EventLoopGroup group;
  private final int maxFrameBytes;
  private final int connectTimeoutMs;
  private final Map<Integer, RpcConnection> connections = new HashMap<>();
  private final ResolutionCache resolutions;
  private volatile int slots;
  private final CuratorCache slotWatch;
  private int references;

  private ClusterConnection(String key, String zkQuorum, String cluster, int maxFrameBytes, int connectTimeoutMs,
      int cacheEntries) throws IOException {
    this.key = key;
    this.cluster = cluster;
    this.maxFrameBytes = maxFrameBytes;
    this.connectTimeoutMs = connectTimeoutMs;
    this.resolutions = new ResolutionCache(cacheEntries, System::nanoTime);
    curator = CuratorFrameworkFactory.builder()
        .connectString(zkQuorum)
        .sessionTimeoutMs(30_000)
        .connectionTimeoutMs(connectTimeoutMs)
        .retryPolicy(new ExponentialBackoffRetry(200, 5))
        .build();
    curator.start();
    try {
      if (!curator.blockUntilConnected(connectTimeoutMs, TimeUnit.MILLISECONDS)) {
        curator.close();
        throw new IOException("Cannot reach ZooKeeper at " + zkQuorum + " for IndexFS cluster " + cluster);
      }
    } catch (InterruptedException e) {
      curator.close();
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("Interrupted connecting to ZooKeeper");
    }
    group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("indexfs-client", true),
        NioIoHandler.newFactory());
    // Slot ownership changes (a server restarted, or another took the slot over): drop the old
    // connection at once, so the next call to that slot finds the new owner.
    slotWatch = CuratorCache.build(curator, ClusterPaths.slots(cluster));
    slotWatch.listenable().addListener(CuratorCacheListener.builder()
        .forChanges((before, after) -> forget(after))
        .forDeletes(this::forget)
        .build());
    slotWatch.start();
  }

  private void forget(ChildData node) {
    String name = node.getPath().substring(node.getPath().lastIndexOf('/') + 1);
    try {
      forget(Integer.parseInt(name));
    } catch (NumberFormatException notASlot) {
      // the /slots node itself
    }
  }

  /** Closes the connection to {@code slot}, if any: its owner changed. */
  private synchronized void forget(int slot) {
    RpcConnection c = connections.remove(slot);
    if (c != null) {
      c.close();
    }
  }

  /** True while this process holds a connection to {@code slot} (tests of the slot watch). */
  synchronized boolean connectedTo(int slot) {
    RpcConnection c = connections.get(slot);
    return c != null && c.isOpen();
  }

  /** Joins (or opens) the process-wide connection to {@code cluster}. */
  public static ClusterConnection acquire(String zkQuorum, String cluster, int maxFrameBytes, int connectTimeoutMs)
      throws IOException {
    return acquire(zkQuorum, cluster, maxFrameBytes, connectTimeoutMs,
        IndexFsConfig.CLIENT_CACHE_ENTRIES.defaultValue());
  }

  /** As above, with a bound on the process's directory-entry cache (the first caller's setting wins). */
  public static ClusterConnection acquire(String zkQuorum, String cluster, int maxFrameBytes, int connectTimeoutMs,
      int cacheEntries) throws IOException {
    String key = zkQuorum + "/" + cluster;
    synchronized (SHARED) {
      ClusterConnection c = SHARED.get(key);
      if (c == null) {
        c = new ClusterConnection(key, zkQuorum, cluster, maxFrameBytes, connectTimeoutMs, cacheEntries);
        SHARED.put(key, c);
      }
      c.references++;
      return c;
    }
  }

  /**
   * A connection of its own, with its own cache, as a second client process would have (tests of
   * cache consistency between clients). Closing it closes it.
   */
  public static ClusterConnection openUnshared(String zkQuorum, String cluster, int maxFrameBytes,
      int connectTimeoutMs) throws IOException {
    return openUnshared(zkQuorum, cluster, maxFrameBytes, connectTimeoutMs,
        IndexFsConfig.CLIENT_CACHE_ENTRIES.defaultValue());
  }

  /** As above, with a bound on its directory-entry cache. */
  public static ClusterConnection openUnshared(String zkQuorum, String cluster, int maxFrameBytes,
      int connectTimeoutMs, int cacheEntries) throws IOException {
    ClusterConnection c = new ClusterConnection(null, zkQuorum, cluster, maxFrameBytes, connectTimeoutMs,
        cacheEntries);
    c.references = 1;
    return c;
  }

  public String cluster() {
    return cluster;
  }

  /** The directory entries this process has cached with leases, shared by all its callers. */
  public ResolutionCache resolutions() {
    return resolutions;
  }

  /** The number of slots the cluster was formatted with. */
  public int slotCount() throws IOException {
    int known = slots;
    if (known > 0) {
      return known;
    }
    try {
      // Fixed at format time: read once.
      slots = ClusterConfig.decode(curator.getData().forPath(ClusterPaths.config(cluster))).slots();
      return slots;
    } catch (KeeperException.NoNodeException e) {
      throw new IOException("IndexFS cluster '" + cluster + "' is not formatted (no " + ClusterPaths.config(cluster) + ")");
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("ZooKeeper read of the cluster config failed: " + e.getMessage(), e);
    }
  }

  /** The live connection to the server of {@code slot}, (re)discovering it through ZooKeeper. */
  public synchronized RpcConnection connection(int slot) throws IOException {
    RpcConnection c = connections.get(slot);
    if (c != null && c.isOpen()) {
      return c;
    }
    if (c != null) {
      c.close();
      connections.remove(slot);
    }
    c = RpcConnection.open(group, discover(slot), maxFrameBytes, connectTimeoutMs);
    connections.put(slot, c);
    return c;
  }

  private InetSocketAddress discover(int slot) throws IOException {
    String path = ClusterPaths.slot(cluster, slot);
    byte[] data;
    try {
      data = curator.getData().forPath(path);
    } catch (KeeperException.NoNodeException e) {
      throw new IOException("No server of IndexFS cluster '" + cluster + "' serves slot " + slot
          + " (nothing registered at " + path + ")");
    } catch (Exception e) {
      throw new IOException("ZooKeeper lookup of " + path + " failed: " + e.getMessage(), e);
    }
    return ClusterPaths.address(data);
  }

  @Override
  public void close() {
    synchronized (SHARED) {
      if (--references > 0) {
        return;
      }
      if (key != null) {
        SHARED.remove(key);
      }
    }
    synchronized (this) {
      connections.values().forEach(RpcConnection::close);
      connections.clear();
    }
    slotWatch.close();
    group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    curator.close();
  }
}
