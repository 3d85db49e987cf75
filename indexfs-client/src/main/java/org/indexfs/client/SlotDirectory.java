package org.indexfs.client;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.indexfs.common.ClusterConfig;
import org.indexfs.common.ClusterPaths;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where each slot of a cluster is served (DESIGN §8). ZooKeeper is the authority; a copy of the
 * last map this user's clients saw is kept in a small local file, so a new client's first call
 * goes straight to the server without waiting for a ZooKeeper session (an HDFS client's first
 * call costs one connection too). Every call names the slot it means ({@code Request.target}), so
 * an address that went stale answers WRONG_SERVER and is looked up again in ZooKeeper. Nothing from
 * ZooKeeper is believed (or remembered) before the slot map proved to be the servers' alone to write
 * ({@link ServersOnlyRecords}).
 */
final class SlotDirectory {
  private static final Logger LOG = LoggerFactory.getLogger(SlotDirectory.class);

  private final ZooKeeperSession session;
  private final String cluster;
  private final String serversId;
  /** The slot map proved to be the servers' (once per process: only they can change that after). */
  private volatile boolean trusted;
  private final long waitMs;
  private final Path cacheFile;
  private final Map<Integer, InetSocketAddress> addresses = new ConcurrentHashMap<>();
  private volatile int slots;

  /** {@code serversId}: the servers' ZooKeeper identity, when the client was told (empty: any one authenticated). */
  SlotDirectory(ZooKeeperSession session, String zkQuorum, String cluster, long waitMs, String serversId) {
    this.session = session;
    this.cluster = cluster;
    this.serversId = serversId;
    this.waitMs = waitMs;
    this.cacheFile = cacheFileOf(zkQuorum, cluster);
    load();
  }

  /** The number of slots the cluster was formatted with (fixed at format time). */
  int slotCount() throws IOException {
    int known = slots;
    if (known > 0) {
      return known;
    }
    try {
      slots = ClusterConfig.decode(read(ClusterPaths.config(cluster))).slots();
      save();
      return slots;
    } catch (KeeperException.NoNodeException e) {
      throw new IOException("IndexFS cluster '" + cluster + "' is not formatted (no " + ClusterPaths.config(cluster) + ")");
    }
  }

  /** The address of {@code slot}'s server: remembered, or looked up in ZooKeeper. */
  InetSocketAddress address(int slot) throws IOException {
    InetSocketAddress known = addresses.get(slot);
    if (known != null) {
      return known;
    }
    String path = ClusterPaths.slot(cluster, slot);
    try {
      InetSocketAddress a = ClusterPaths.address(read(path));
      addresses.put(slot, a);
      save();
      return a;
    } catch (KeeperException.NoNodeException e) {
      throw new IOException("No server of IndexFS cluster '" + cluster + "' serves slot " + slot
          + " (nothing registered at " + path + ")");
    }
  }

  /**
   * ZooKeeper ({@code curator}'s session) says {@code slot} is now served at {@code published} (null:
   * by nobody). Believed once the slot map proved to be the servers' ({@link #trust}); else the news
   * only makes the next call look the slot up.
   */
  void update(CuratorFramework curator, int slot, byte[] published) {
    if (published != null && !trusted) {
      try {
        trust(curator);
      } catch (IOException e) {
        LOG.warn("Not believing the record of slot {}: {}", slot, e.getMessage());
        published = null;
      }
    }
    if (published == null) {
      addresses.remove(slot);
    } else {
      addresses.put(slot, ClusterPaths.address(published));
    }
    save();
  }

  /** The remembered address of {@code slot} is wrong: the next lookup asks ZooKeeper. */
  void forget(int slot) {
    addresses.remove(slot);
  }

  private byte[] read(String path) throws IOException, KeeperException.NoNodeException {
    try {
      CuratorFramework curator = session.get();
      if (!curator.blockUntilConnected((int) waitMs, TimeUnit.MILLISECONDS)) {
        throw new IOException("Cannot reach ZooKeeper for IndexFS cluster " + cluster + " within " + waitMs + " ms");
      }
      trust(curator);
      return curator.getData().forPath(path);
    } catch (KeeperException.NoNodeException e) {
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted reading " + path + " from ZooKeeper");
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("ZooKeeper read of " + path + " failed: " + e.getMessage(), e);
    }
  }

  /** Checks, once, that only the servers can write the slot map ({@link ServersOnlyRecords}). */
  void trust(CuratorFramework curator) throws IOException {
    if (!trusted) {
      ServersOnlyRecords.check(curator, cluster, serversId);
      trusted = true;
    }
  }

  /**
   * {@code <tmp>/indexfs-client-<user>/<hash of quorum and cluster>.slots}, in a directory only this
   * user can write (a file another user could plant is never read).
   */
  private static Path cacheFileOf(String zkQuorum, String cluster) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest((zkQuorum + "/" + cluster).getBytes(StandardCharsets.UTF_8));
      Path dir = Path.of(System.getProperty("java.io.tmpdir"), "indexfs-client-" + System.getProperty("user.name"));
      return dir.resolve(HexFormat.of().formatHex(digest, 0, 16) + ".slots");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private void load() {
    try {
      Path dir = cacheFile.getParent();
      if (!Files.isRegularFile(cacheFile)
          || !Files.getOwner(dir).getName().equals(System.getProperty("user.name"))
          || !Files.getOwner(cacheFile).getName().equals(System.getProperty("user.name"))) {
        return;
      }
      Properties p = new Properties();
      try (var in = Files.newInputStream(cacheFile)) {
        p.load(in);
      }
      for (String name : p.stringPropertyNames()) {
        if (!name.isEmpty() && name.chars().allMatch(Character::isDigit)) {
          addresses.put(Integer.parseInt(name), ClusterPaths.address(p.getProperty(name).getBytes(StandardCharsets.UTF_8)));
        }
      }
      slots = Integer.parseInt(p.getProperty("slots", "0"));
    } catch (IOException | RuntimeException e) {
      LOG.debug("Ignoring the slot map cache {}: {}", cacheFile, e.toString());
    }
  }

  private synchronized void save() {
    // Saved as soon as anything is known: a client whose first call needs only one slot's address
    // (no slot count) must leave the next one a map too, or every fresh client waits for ZooKeeper.
    int n = slots;
    if (n <= 0 && addresses.isEmpty()) {
      return;
    }
    Properties p = new Properties();
    if (n > 0) {
      p.setProperty("slots", String.valueOf(n));
    }
    addresses.forEach((k, a) -> p.setProperty(String.valueOf(k), a.getHostString() + ":" + a.getPort()));
    try {
      Path dir = cacheFile.getParent();
      if (!Files.isDirectory(dir)) {
        Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      }
      Path tmp = Files.createTempFile(dir, "slots", ".tmp");
      try (var out = Files.newOutputStream(tmp)) {
        p.store(out, "IndexFS cluster " + cluster + ": where each slot was last served (ZooKeeper is the authority)");
      }
      Files.move(tmp, cacheFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException | RuntimeException e) {
      LOG.debug("Could not write the slot map cache {}: {}", cacheFile, e.toString());
    }
  }
}
