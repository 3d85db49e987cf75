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
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.SecurityUtil;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.server.IndexFsServer;
import org.indexfs.server.SlotRunner;
import org.indexfs.server.membership.ClusterFormat;
import org.indexfs.server.security.HadoopSettings;
import org.indexfs.server.security.ServerZooKeeper;

/**
 * The embedded cluster under one work directory: a real ZooKeeper server, the metadata
 * server(s), and a data tier for large-file objects: a local directory, or with
 * {@link Builder#hdfs} a real HDFS (NameNode + DataNodes, {@link LocalHdfs}). Used by
 * {@code bin/indexfs local} and by tests. Restarting it on the same directory finds every file again.
 *
 * <pre>
 * work/zookeeper   ZooKeeper snapshots and log; servers.digest, the servers' ZooKeeper digest (0600)
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
  private EmbeddedZooKeeper zookeeper;
  private final int zkPort;
  /** With Kerberos: the embedded ZooKeeper's login (the servers' principal); null: digest. */
  private final EmbeddedZooKeeper.Kerberos zkKerberos;
  /** How the servers (and this process, formatting) are known in ZooKeeper. */
  private final ServerZooKeeper servers;
  /** Per slot, every server started for it: the one serving it, and standbys. */
  private final Map<Integer, List<SlotRunner>> runners = new java.util.TreeMap<>();
  private int serverCount;

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
      // The servers' ZooKeeper identity (issue 31): SASL as their principal with Kerberos, else a digest
      // made once per work directory, as an operator would set indexfs.security.zookeeper.digest.
      Configuration hadoop = HadoopSettings.of(serverConf);
      String host = IndexFsConfig.SERVER_BIND_HOST.get(serverConf);
      boolean sasl = "kerberos".equalsIgnoreCase(hadoop.get("hadoop.security.authentication", "simple"))
          && !"digest".equals(IndexFsConfig.SECURITY_ZOOKEEPER_AUTH.get(serverConf));
      if (sasl) {
        String principal = SecurityUtil.getServerPrincipal(IndexFsConfig.SERVER_KERBEROS_PRINCIPAL.get(serverConf), host);
        zkKerberos = new EmbeddedZooKeeper.Kerberos(principal, IndexFsConfig.SERVER_KEYTAB.get(serverConf));
        serverConf.putIfAbsent(IndexFsConfig.SECURITY_ZOOKEEPER_SERVER_PRINCIPAL.name(), principal);
      } else {
        zkKerberos = null;
        if (IndexFsConfig.SECURITY_ZOOKEEPER_DIGEST.get(serverConf).isEmpty()) {
          serverConf.put(IndexFsConfig.SECURITY_ZOOKEEPER_DIGEST.name(), ServersDigest.loadOrCreate(digestFile()));
        }
      }
      servers = ServerZooKeeper.of(serverConf, hadoop, host);
      zookeeper = new EmbeddedZooKeeper(workDir.resolve("zookeeper").toFile(), "127.0.0.1", b.zkPort, zkKerberos);
    } catch (IOException | RuntimeException e) {
      if (hdfs != null) {
        hdfs.close();
      }
      throw e;
    }
    zkPort = zookeeper.port();
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
      serverCount = servers;
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
  }

  /** The slot count this work directory's cluster was formatted with, or 0 when it is new. */
  private int formattedSlots() throws IOException {
    try (CuratorFramework curator = servers.connect(zookeeper.connectString(), 30_000)) {
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
    try (CuratorFramework curator = servers.connect(zookeeper.connectString(), 30_000)) {
      ClusterFormat.format(curator, clusterName, slots);
    }
  }

  private Path digestFile() {
    return workDir.resolve("zookeeper").resolve("servers.digest");
  }

  /**
   * The servers' ZooKeeper digest ({@code user:password}; null with Kerberos), for a test that must
   * write as the servers do, or an operator starting more servers against this cluster.
   */
  public String zookeeperDigest() {
    return servers.digest();
  }

  /** The file holding {@link #zookeeperDigest()} (readable by its owner only); null with Kerberos. */
  public Path zookeeperDigestFile() {
    return zkKerberos == null && IndexFsConfig.SECURITY_ZOOKEEPER_DIGEST.get(serverConf).equals(servers.digest())
        && Files.exists(digestFile()) ? digestFile() : null;
  }

  /** The servers' identity in ZooKeeper and the ACLs they write with. */
  public ServerZooKeeper serversInZooKeeper() {
    return servers;
  }

  public static Builder builder(Path workDir) {
    return new Builder(workDir);
  }

  private Map<String, String> conf(int slot, String dirName, boolean standby) {
    Map<String, String> conf = new HashMap<>(serverConf);
    conf.put(IndexFsConfig.SERVER_SLOT.name(), String.valueOf(slot));
    conf.put(IndexFsConfig.SERVER_DIR.name(), workDir.resolve(dirName).toString());
    conf.put(IndexFsConfig.SERVER_STANDBY.name(), String.valueOf(standby));
    conf.put(IndexFsConfig.SERVER_NAME.name(), dirName);
    return conf;
  }

  private synchronized void startServer(int slot) throws IOException {
    SlotRunner r = SlotRunner.start(conf(slot, "slot-" + slot, false), new SlotRunner.Events() {});
    runners.computeIfAbsent(slot, k -> new ArrayList<>()).add(r);
  }

  /**
   * Starts a standby of {@code slot} in this process (its store under {@code slot-K-standby-N}); it
   * takes the slot over when its server stops. Needs {@code indexfs.journal.enabled=true}.
   */
  public SlotRunner startStandby(int slot) throws IOException {
    return startStandby(slot, runners(slot).size());
  }

  /** A standby of {@code slot} on {@code slot-K-standby-N}: the same directory as an earlier one of that number. */
  public SlotRunner startStandby(int slot, int n) throws IOException {
    SlotRunner r = SlotRunner.start(conf(slot, "slot-" + slot + "-standby-" + n, true), new SlotRunner.Events() {});
    synchronized (this) {
      runners.computeIfAbsent(slot, k -> new ArrayList<>()).add(r);
    }
    return r;
  }

  /** Stops one server of the cluster (a standby, say), whatever it is doing. */
  public void stop(SlotRunner runner) {
    synchronized (this) {
      runners.values().forEach(list -> list.remove(runner));
    }
    runner.close();
  }

  /** Every server started for {@code slot} (serving or standing by). */
  public synchronized List<SlotRunner> runners(int slot) {
    return List.copyOf(runners.getOrDefault(slot, List.of()));
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

  /** Stops the server serving {@code slot} (as if it died); {@link #restartServer(int)} brings it back. */
  public void stopServer(int slot) {
    SlotRunner serving;
    synchronized (this) {
      serving = servingRunner(slot);
      if (serving == null) {
        return;
      }
      runners.get(slot).remove(serving);
    }
    serving.close();
  }

  private SlotRunner servingRunner(int slot) {
    for (SlotRunner r : runners.getOrDefault(slot, List.of())) {
      if (r.current() != null) {
        return r;
      }
    }
    return null;
  }

  /** Stops the ZooKeeper server (an outage); {@link #startZooKeeper} brings it back on the same port and data. */
  public synchronized void stopZooKeeper() {
    if (zookeeper != null) {
      zookeeper.close();
      zookeeper = null;
    }
  }

  public synchronized void startZooKeeper() throws IOException {
    if (zookeeper == null) {
      zookeeper = new EmbeddedZooKeeper(workDir.resolve("zookeeper").toFile(), "127.0.0.1", zkPort, zkKerberos);
    }
  }

  public IndexFsServer server() {
    return server(0);
  }

  /** The server serving {@code slot} now, or null. */
  public synchronized IndexFsServer server(int slot) {
    SlotRunner r = servingRunner(slot);
    return r == null ? null : r.current();
  }

  public int serverCount() {
    return serverCount;
  }

  public String clusterName() {
    return clusterName;
  }

  public String zookeeperConnect() {
    return "127.0.0.1:" + zkPort;
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
    conf.put(String.format(IndexFsConfig.CLUSTER_ZOOKEEPER_PATTERN, clusterName), zookeeperConnect());
    // Clients refuse slot records anyone but these servers could have written (never the digest itself).
    conf.put(IndexFsConfig.SECURITY_ZOOKEEPER_SERVER_ID.name(), servers.id());
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
    List<SlotRunner> all = new ArrayList<>();
    synchronized (this) {
      runners.values().forEach(all::addAll);
      runners.clear();
    }
    // Standbys first, so none takes over a slot whose server is stopping.
    for (SlotRunner r : all) {
      if (r.current() == null) {
        r.close();
      }
    }
    for (SlotRunner r : all) {
      r.close();
    }
    stopZooKeeper();
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
