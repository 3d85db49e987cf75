package org.indexfs.server.local;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.server.IndexFsServer;
import org.indexfs.server.membership.ClusterFormat;

/**
 * The embedded cluster under one work directory: a real ZooKeeper server, the metadata
 * server(s), and a data tier for large-file objects: a local directory, or with
 * {@link Builder#hdfs} a real HDFS (NameNode + DataNodes, {@link LocalHdfs}). Used by
 * {@code bin/indexfs local} and by tests. Restarting it on the same directory finds every file again.
 *
 * <pre>
 * work/zookeeper   ZooKeeper snapshots and log
 * work/slot-K      the RocksDB of slot K (one per server: --servers N runs N)
 * work/data        data objects (indexfs.data.uri), without HDFS
 * work/hdfs        NameNode and DataNode storage, with HDFS (objects under hdfs://.../indexfs-data)
 * work/conf        core-site.xml for clients
 * </pre>
 */
public final class LocalCluster implements AutoCloseable {
  private final Path workDir;
  private final String clusterName;
  private final Map<String, String> serverConf;
  private final LocalHdfs hdfs;
  private final EmbeddedZooKeeper zookeeper;
  private final List<IndexFsServer> servers = new ArrayList<>();

  private LocalCluster(Builder b) throws IOException {
    this.workDir = b.workDir.toAbsolutePath();
    this.clusterName = b.clusterName;
    serverConf = new HashMap<>(b.conf);
    if (b.hdfs) {
      // Its NameNode audits into a logger of its own: this process's IndexFS servers use HDFS's.
      hdfs = LocalHdfs.start(workDir.resolve("hdfs"), LocalHdfs.DEFAULT_DATANODES,
          Map.of("dfs.namenode.audit.loggers", NameNodeAuditLogger.class.getName()), true);
      serverConf.put(IndexFsConfig.DATA_URI.name(), hdfs.uri() + "/indexfs-data");
    } else {
      hdfs = null;
      Files.createDirectories(workDir.resolve("data"));
      serverConf.putIfAbsent(IndexFsConfig.DATA_URI.name(),
          workDir.resolve("data").toUri().toString().replaceAll("/$", ""));
    }
    try {
      zookeeper = new EmbeddedZooKeeper(workDir.resolve("zookeeper").toFile(), b.zkPort);
    } catch (IOException | RuntimeException e) {
      if (hdfs != null) {
        hdfs.close();
      }
      throw e;
    }
    serverConf.put(IndexFsConfig.ZOOKEEPER_QUORUM.name(), zookeeper.connectString());
    serverConf.put(IndexFsConfig.CLUSTER_NAME.name(), clusterName);
    try {
      int formatted = formattedSlots();
      int slots = Math.max(b.slots, b.servers);
      int servers = Math.max(1, b.servers);
      if (slots == 0) {
        // Nothing asked for: the cluster this work directory holds (one slot when new).
        slots = formatted > 0 ? formatted : 1;
        servers = slots;
      } else if (formatted > 0 && formatted != slots) {
        throw new IOException("The work directory " + workDir + " holds a cluster formatted with " + formatted
            + (formatted == 1 ? " slot" : " slots") + ", not " + slots + ": start it with --servers " + formatted
            + ", or use another --work-dir for " + slots + " slots");
      }
      if (slots > 1) {
        formatSlots(slots);
      }
      for (int slot = 0; slot < servers; slot++) {
        startServer(slot);
      }
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
  }

  /** The slot count this work directory's cluster was formatted with, or 0 when it is new. */
  private int formattedSlots() throws IOException {
    try (CuratorFramework curator = CuratorFrameworkFactory.newClient(zookeeper.connectString(),
        new BoundedExponentialBackoffRetry(100, 2_000, 5))) {
      curator.start();
      if (curator.checkExists().forPath(org.indexfs.common.ClusterPaths.config(clusterName)) == null) {
        return 0;
      }
      return ClusterFormat.read(curator, clusterName).slots();
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("Cannot read the cluster's format from ZooKeeper: " + e.getMessage(), e);
    }
  }

  /** A cluster of several slots is formatted before its servers start (bin/indexfs format --slots N). */
  private void formatSlots(int slots) throws IOException {
    try (CuratorFramework curator = CuratorFrameworkFactory.newClient(zookeeper.connectString(),
        new BoundedExponentialBackoffRetry(100, 2_000, 5))) {
      curator.start();
      ClusterFormat.format(curator, clusterName, slots);
    }
  }

  public static Builder builder(Path workDir) {
    return new Builder(workDir);
  }

  private void startServer(int slot) throws IOException {
    Map<String, String> conf = new HashMap<>(serverConf);
    conf.put(IndexFsConfig.SERVER_SLOT.name(), String.valueOf(slot));
    conf.put(IndexFsConfig.SERVER_DIR.name(), workDir.resolve("slot-" + slot).toString());
    IndexFsServer server = IndexFsServer.start(conf);
    if (slot < servers.size()) {
      servers.set(slot, server);
    } else {
      servers.add(server);
    }
  }

  /** Stops and starts slot 0's server on the same directory (a clean restart). */
  public void restartServer() throws IOException {
    restartServer(0);
  }

  /** Stops and starts the server of {@code slot} on the same directory. */
  public void restartServer(int slot) throws IOException {
    stopServer(slot);
    startServer(slot);
  }

  /** Stops the server of {@code slot} (as if it died); {@link #restartServer(int)} brings it back. */
  public void stopServer(int slot) {
    IndexFsServer s = servers.get(slot);
    if (s != null) {
      s.close();
      servers.set(slot, null);
    }
  }

  public IndexFsServer server() {
    return servers.get(0);
  }

  public IndexFsServer server(int slot) {
    return servers.get(slot);
  }

  public int serverCount() {
    return servers.size();
  }

  public String clusterName() {
    return clusterName;
  }

  public String zookeeperConnect() {
    return zookeeper.connectString();
  }

  public Path workDir() {
    return workDir;
  }

  public String dataUri() {
    return serverConf.get(IndexFsConfig.DATA_URI.name());
  }

  /** The HDFS this cluster started as its data tier, or null (local directory or an outside FS). */
  public LocalHdfs hdfs() {
    return hdfs;
  }

  public String defaultFs() {
    return "indexfs://" + clusterName + "/";
  }

  /** The settings a Hadoop client needs to use this cluster. */
  public Map<String, String> clientConf() {
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put("fs.defaultFS", defaultFs());
    conf.put(String.format(IndexFsConfig.CLUSTER_ZOOKEEPER_PATTERN, clusterName), zookeeper.connectString());
    // FileContext finds AbstractFileSystems only through configuration, never a service loader.
    conf.put("fs.AbstractFileSystem.indexfs.impl", "org.indexfs.hadoop.IndexFs");
    return conf;
  }

  /** Writes {@link #clientConf()} as a Hadoop core-site.xml and returns its path. */
  public Path writeClientConf(Path dir) throws IOException {
    Files.createDirectories(dir);
    Path file = dir.resolve("core-site.xml");
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      w.write("<?xml version=\"1.0\"?>\n<!-- Written by bin/indexfs local: point a Hadoop client at the embedded cluster. -->\n<configuration>\n");
      for (Map.Entry<String, String> e : clientConf().entrySet()) {
        w.write("  <property><name>" + e.getKey() + "</name><value>" + e.getValue() + "</value></property>\n");
      }
      w.write("</configuration>\n");
    }
    return file;
  }

  @Override
  public void close() {
    for (IndexFsServer s : servers) {
      if (s != null) {
        s.close();
      }
    }
    servers.clear();
    zookeeper.close();
    if (hdfs != null) {
      hdfs.close();
    }
  }

  public static final class Builder {
    private final Path workDir;
    private String clusterName = "local";
    private int zkPort;
    private boolean hdfs;
    /** 0: as many as the work directory's cluster has (one for a new one). */
    private int servers;
    private int slots;
    private final Map<String, String> conf = new HashMap<>();

    private Builder(Path workDir) {
      this.workDir = workDir;
    }

    public Builder clusterName(String name) {
      this.clusterName = name;
      return this;
    }

    /** 0 (the default) picks a free port. */
    public Builder zookeeperPort(int port) {
      this.zkPort = port;
      return this;
    }

    /** Keep data objects on a real HDFS started under {@code work/hdfs} (1 NameNode, 3 DataNodes). */
    public Builder hdfs(boolean enabled) {
      this.hdfs = enabled;
      return this;
    }

    /** Runs {@code n} servers in this process, slots 0..n-1, each with its own RocksDB and port. */
    public Builder servers(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("servers must be at least 1, got " + n);
      }
      this.servers = n;
      return this;
    }

    /**
     * Formats the cluster with {@code n} slots even if fewer servers run here; the others join as
     * separate processes ({@code bin/indexfs server --slot k}).
     */
    public Builder slots(int n) {
      this.slots = n;
      return this;
    }

    public Builder set(String key, String value) {
      conf.put(key, value);
      return this;
    }

    public LocalCluster start() throws IOException {
      return new LocalCluster(this);
    }
  }
}
