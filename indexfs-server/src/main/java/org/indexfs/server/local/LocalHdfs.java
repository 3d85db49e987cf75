package org.indexfs.server.local;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * A real, unmodified HDFS in this process for the embedded cluster's data tier: HDFS's own
 * {@link MiniDFSCluster}, one NameNode and (by default) three DataNodes keeping their storage under
 * one directory. Restarted on the same directory it keeps its blocks (the NameNode is formatted only
 * the first time), like the rest of the embedded cluster. The user running it may impersonate
 * anyone ({@code hadoop.proxyuser.<login>.hosts/groups=*}), as {@code bin/indexfs replay} does to
 * act as each user of an audit log. Used by {@code bin/indexfs local --hdfs} and by the tests.
 */
public final class LocalHdfs implements AutoCloseable {
  public static final int DEFAULT_DATANODES = 3;
  /** Where a kept HDFS remembers its NameNode's port between restarts. */
  private static final String PORT_FILE = "namenode.port";

  private final MiniDFSCluster cluster;
  private final boolean keepStorage;

  private LocalHdfs(MiniDFSCluster cluster, boolean keepStorage) {
    this.cluster = cluster;
    this.keepStorage = keepStorage;
  }

  /**
   * Starts (or restarts) HDFS under {@code dir}. {@code settings} override HDFS configuration keys
   * (tests allow tiny blocks ...). {@code keepStorage}: leave the blocks in {@code dir} on close, for
   * a restart; otherwise close deletes {@code dir}.
   */
  public static LocalHdfs start(Path dir, int dataNodes, Map<String, String> settings, boolean keepStorage)
      throws IOException {
    File base = dir.toAbsolutePath().toFile();
    boolean firstStart = !Files.isDirectory(dir.resolve("name-0-1"));
    Configuration conf = new HdfsConfiguration();
    // Block recovery (truncate, lease recovery) and re-replication ride on heartbeats: keep them short.
    conf.setLong("dfs.heartbeat.interval", 1);
    // bin/indexfs replay acts as each user of an audit log through proxy users of the login user.
    String login = UserGroupInformation.getLoginUser().getShortUserName();
    conf.set("hadoop.proxyuser." + login + ".hosts", "*");
    conf.set("hadoop.proxyuser." + login + ".groups", "*");
    settings.forEach(conf::set);
    // A kept HDFS comes back on the port it had, so the hdfs:// URI scripts were given stays valid.
    Path portFile = dir.resolve(PORT_FILE);
    int port = keepStorage && !firstStart && Files.isRegularFile(portFile)
        ? Integer.parseInt(Files.readString(portFile).trim()) : 0;
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf, base)
        .numDataNodes(dataNodes)
        .nameNodePort(port)
        .format(firstStart)
        // MiniDFSCluster skips the edit log's fsync unless told; a real NameNode never does, and
        // users compare IndexFS with this HDFS (bin/indexfs replay --compare).
        .skipFsyncForTesting(false)
        .build();
    try {
      cluster.waitActive();
      if (keepStorage) {
        Files.writeString(portFile, cluster.getNameNodePort() + "\n");
      }
    } catch (IOException | RuntimeException e) {
      cluster.shutdown();
      throw e;
    }
    return new LocalHdfs(cluster, keepStorage);
  }

  /** {@code hdfs://host:port}: the NameNode clients and the metadata server talk to. */
  public URI uri() {
    return cluster.getURI();
  }

  /** The HDFS client of the cluster's own user (the HDFS superuser here). */
  public DistributedFileSystem fileSystem() throws IOException {
    return cluster.getFileSystem();
  }

  /** The MiniDFSCluster itself, for tests that stop and restart DataNodes. */
  public MiniDFSCluster cluster() {
    return cluster;
  }

  @Override
  public void close() {
    if (keepStorage) {
      // MiniDFSCluster.shutdown() would schedule the whole directory for deletion at JVM exit.
      cluster.shutdownDataNodes();
      cluster.shutdownNameNodes();
    } else {
      cluster.shutdown(true);
    }
  }
}
