package org.indexfs.bench.replay;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * A stock HDFS (NameNode + one DataNode) in this JVM, configured as the replay tests need:
 * permissions on, small blocks allowed, one replica, the login user allowed to impersonate
 * (proxy-user replay), synchronous audit logging so a capture sees every record at once, and a
 * durable edit log: MiniDFSCluster skips the NameNode's fsync unless told not to, and IndexFS
 * syncs its WAL (indexfs.wal.sync=true), so comparing them otherwise would flatter HDFS.
 */
final class MiniHdfs implements AutoCloseable {
  private static MiniHdfs shared;

  private final MiniDFSCluster cluster;

  /** The one HDFS of this test JVM (a MiniDFSCluster is heavy), shut down at exit. */
  static synchronized MiniHdfs shared() throws IOException {
    if (shared == null) {
      shared = new MiniHdfs("hdfs");
      MiniHdfs started = shared;
      Runtime.getRuntime().addShutdownHook(new Thread(started::close, "minihdfs-shutdown"));
    }
    return shared;
  }

  MiniHdfs(String name) throws IOException {
    this(name, java.util.Map.of());
  }

  /** A cluster with {@code overrides} applied last (a test of a misconfigured target). */
  MiniHdfs(String name, java.util.Map<String, String> overrides) throws IOException {
    Path base = Path.of(System.getProperty("test.build.data", "target/test-data"));
    Files.createDirectories(base);
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, Files.createTempDirectory(base, name + "-").toString());
    conf.setBoolean("dfs.permissions.enabled", true);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 0);
    conf.setInt("dfs.replication", 1);
    conf.setBoolean("dfs.namenode.audit.log.async", false);
    String login = UserGroupInformation.getLoginUser().getShortUserName();
    conf.set("hadoop.proxyuser." + login + ".hosts", "*");
    conf.set("hadoop.proxyuser." + login + ".groups", "*");
    overrides.forEach(conf::set);
    cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).format(true)
        .skipFsyncForTesting(false).build();
    cluster.waitActive();
  }

  URI uri() {
    return URI.create("hdfs://localhost:" + cluster.getNameNodePort());
  }

  /** Client settings for this cluster (one replica, as the cluster has one DataNode). */
  Configuration conf() {
    return new Configuration(cluster.getConfiguration(0));
  }

  @Override
  public void close() {
    cluster.shutdown();
  }
}
