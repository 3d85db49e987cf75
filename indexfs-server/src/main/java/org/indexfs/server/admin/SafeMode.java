package org.indexfs.server.admin;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.indexfs.common.ClusterPaths;
import org.indexfs.proto.SafeModeStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster's read-only switch for maintenance ({@code bin/indexfs admin -safemode}), kept in
 * ZooKeeper at {@code /indexfs/<cluster>/safemode}: one switch for every slot, because a
 * namespace that is read-only on some slots only is no state to back up or repair. Every server
 * watches the node; while it exists, client mutations are refused ({@link SafeModeGuard}) and the
 * server starts no background change of its own (lease recovery, splits, scrubbing, reclamation).
 * Unlike HDFS's in-memory switch it outlives restarts: maintenance ends with
 * {@code -safemode leave}, not with a crash.
 */
public final class SafeMode implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SafeMode.class);

  private volatile SafeModeStatus status = SafeModeStatus.getDefaultInstance();
  private volatile CuratorFramework curator;
  private volatile String path;
  private CuratorCache watch;

  /** Starts following the cluster's switch (once this server holds its slot). */
  public synchronized void attach(CuratorFramework curator, String cluster) throws IOException {
    this.curator = curator;
    this.path = ClusterPaths.safeMode(cluster);
    watch = CuratorCache.build(curator, path, CuratorCache.Options.SINGLE_NODE_CACHE);
    watch.listenable().addListener(CuratorCacheListener.builder()
        .forCreatesAndChanges((before, after) -> update(after))
        .forDeletes(gone -> update(null))
        .build());
    watch.start();
    // The watch fills in asynchronously: read the switch now, so a server never starts writable
    // in a cluster that is in safe mode.
    try {
      update(new ChildData(path, null, curator.getData().forPath(path)));
    } catch (KeeperException.NoNodeException off) {
      update(null);
    } catch (Exception e) {
      throw new IOException("Cannot read the safe mode switch at " + path + ": " + e.getMessage(), e);
    }
  }

  private void update(ChildData node) {
    SafeModeStatus next = node == null || node.getData() == null ? SafeModeStatus.getDefaultInstance()
        : decode(node.getData());
    if (next.getOn() != status.getOn()) {
      LOG.info(next.getOn() ? "Safe mode is ON (entered by {}): mutations are refused" : "Safe mode is OFF{}",
          next.getOn() ? next.getEnteredBy() : "");
    }
    status = next;
  }

  public boolean isOn() {
    return status.getOn();
  }

  public SafeModeStatus status() {
    return status;
  }

  /** Turns safe mode on for the whole cluster; this server enforces it at once, the others when their watch fires. */
  public void enter(String user) throws IOException {
    byte[] data = (user + "\n" + System.currentTimeMillis()).getBytes(StandardCharsets.UTF_8);
    try {
      try {
        curator().create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT).forPath(path, data);
      } catch (KeeperException.NodeExistsException already) {
        return;
      }
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("Cannot turn safe mode on at " + path + ": " + e.getMessage(), e);
    }
    update(new ChildData(path, null, data));
  }

  /** Turns safe mode off for the whole cluster. */
  public void leave() throws IOException {
    try {
      curator().delete().forPath(path);
    } catch (KeeperException.NoNodeException already) {
      // off already
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("Cannot turn safe mode off at " + path + ": " + e.getMessage(), e);
    }
    update(null);
  }

  private CuratorFramework curator() throws IOException {
    CuratorFramework c = curator;
    if (c == null) {
      throw new IOException("This server has not joined its cluster yet");
    }
    return c;
  }

  private static SafeModeStatus decode(byte[] data) {
    String[] parts = new String(data, StandardCharsets.UTF_8).split("\n", 2);
    SafeModeStatus.Builder b = SafeModeStatus.newBuilder().setOn(true).setEnteredBy(parts[0]);
    try {
      b.setEnteredMs(parts.length > 1 ? Long.parseLong(parts[1].trim()) : 0);
    } catch (NumberFormatException e) {
      LOG.warn("Safe mode node holds an unreadable time: {}", parts[1]);
    }
    return b.build();
  }

  @Override
  public synchronized void close() {
    if (watch != null) {
      watch.close();
      watch = null;
    }
  }
}
