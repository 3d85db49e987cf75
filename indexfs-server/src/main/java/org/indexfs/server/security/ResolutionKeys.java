package org.indexfs.server.security;

import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.indexfs.common.ClusterPaths;
import org.indexfs.proto.SealKey;
import org.indexfs.proto.SealKeys;
import org.indexfs.server.Blocking;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster's resolution-sealing keys, shared by every server through one ZooKeeper node
 * ({@link ClusterPaths#resolutionKeys}): created by the first server to start, rotated by whichever
 * server first finds the newest key older than the rotation period (a versioned write, so two
 * servers never both add one), the previous key kept one more period so seals made under it stay
 * good until they expire. The node, and the node it lives in, are the servers' alone to read and
 * change ({@link ServerZooKeeper}): clients also talk to ZooKeeper and must not see it, and a key node
 * anyone else could have written (or deleted and made again with a key of their own) is refused.
 *
 * <p>This class owns its own ZooKeeper session, authenticated as the servers.
 */
public final class ResolutionKeys implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ResolutionKeys.class);
  private static final int SECRET_BYTES = 32;

  private final CuratorFramework curator;
  private final String path;
  private final long rotationMs;
  private final ServerZooKeeper zk;
  private final SecureRandom random = new SecureRandom();
  private final AtomicLong lastReloadNanos = new AtomicLong(System.nanoTime() - 1_000_000_000L);
  private volatile SealKeys keys = SealKeys.getDefaultInstance();

  public ResolutionKeys(ServerZooKeeper zk, String zkQuorum, int sessionTimeoutMs, String cluster, long rotationMs)
      throws java.io.IOException {
    this.path = ClusterPaths.resolutionKeys(cluster);
    this.rotationMs = rotationMs;
    this.zk = zk;
    curator = zk.connect(zkQuorum, sessionTimeoutMs);
    try {
      refresh();
    } catch (Exception e) {
      curator.close();
      throw new java.io.IOException("Cannot load the resolution keys at " + path + ": " + e, e);
    }
  }

  /** The key new seals are made with. */
  public SealKey current() {
    SealKeys k = keys;
    return k.getKeys(k.getKeysCount() - 1);
  }

  /**
   * The key {@code id}, or null. An id this server has not seen yet (another server rotated) is
   * looked up in ZooKeeper, at most once a second.
   */
  public SealKey find(int id) {
    SealKey k = lookup(id);
    if (k == null) {
      long last = lastReloadNanos.get();
      if (System.nanoTime() - last > 1_000_000_000L) {
        Blocking.check("reading the resolution keys from ZooKeeper");
        if (lastReloadNanos.compareAndSet(last, System.nanoTime())) {
          try {
            load();
          } catch (Exception e) {
            LOG.warn("Could not reload the resolution keys: {}", e.toString());
          }
        }
        k = lookup(id);
      }
    }
    return k;
  }

  private SealKey lookup(int id) {
    for (SealKey k : keys.getKeysList()) {
      if (k.getId() == id) {
        return k;
      }
    }
    return null;
  }

  /** Loads the keys, creating the first one, and rotates when the newest is too old (periodic). */
  public void refresh() throws Exception {
    for (int attempt = 0; attempt < 5; attempt++) {
      Stat stat = new Stat();
      byte[] data;
      try {
        data = curator.getData().storingStatIn(stat).forPath(path);
      } catch (KeeperException.NoNodeException absent) {
        try {
          curator.create().creatingParentsIfNeeded().forPath(path, withNewKey(SealKeys.getDefaultInstance()).toByteArray());
        } catch (KeeperException.NodeExistsException raced) {
          // Another server made the first key: read it.
        }
        continue;
      }
      trusted();
      SealKeys stored = SealKeys.parseFrom(data);
      SealKey newest = stored.getKeys(stored.getKeysCount() - 1);
      if (System.currentTimeMillis() - newest.getCreatedMs() < rotationMs) {
        keys = stored;
        return;
      }
      try {
        curator.setData().withVersion(stat.getVersion()).forPath(path, withNewKey(stored).toByteArray());
        LOG.info("Rotated the resolution-sealing key (the previous one stays valid for another {} ms)", rotationMs);
      } catch (KeeperException.BadVersionException raced) {
        // Another server rotated first: read its result.
      }
    }
    load();
  }

  private void load() throws Exception {
    byte[] data = curator.getData().forPath(path);
    trusted();
    keys = SealKeys.parseFrom(data);
  }

  /** Refuses keys someone other than the servers could have written (issue 31). */
  private void trusted() throws java.io.IOException {
    zk.checkWrittenByServers(curator, path.substring(0, path.lastIndexOf('/')));
    zk.checkWrittenByServers(curator, path);
  }

  /** {@code stored} plus a fresh key, keeping only the previous newest one besides it. */
  private SealKeys withNewKey(SealKeys stored) {
    byte[] secret = new byte[SECRET_BYTES];
    random.nextBytes(secret);
    int id = stored.getKeysCount() == 0 ? random.nextInt(1 << 30) : stored.getKeys(stored.getKeysCount() - 1).getId() + 1;
    SealKeys.Builder b = SealKeys.newBuilder();
    if (stored.getKeysCount() > 0) {
      b.addKeys(stored.getKeys(stored.getKeysCount() - 1));
    }
    return b.addKeys(SealKey.newBuilder().setId(id).setCreatedMs(System.currentTimeMillis())
        .setSecret(com.google.protobuf.ByteString.copyFrom(secret))).build();
  }

  @Override
  public void close() {
    curator.close();
  }
}
