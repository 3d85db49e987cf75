package org.indexfs.client;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.server.local.LocalCluster;

/** Where tests of this module keep their files, and how they talk to an embedded cluster. */
final class TestData {
  static final String USER = System.getProperty("user.name");

  /**
   * The servers' ZooKeeper digest of clusters these tests run outside {@link LocalCluster} (server
   * processes): set on every server, and used where a test formats a cluster as the servers would.
   */
  static final String SERVERS_DIGEST = "indexfs:client-tests";

  private TestData() {}

  /** A session to {@code zookeeper} as the servers of {@link #SERVERS_DIGEST} (formatting a cluster). */
  static org.apache.curator.framework.CuratorFramework asServers(String zookeeper) throws IOException {
    return org.indexfs.server.security.ServerZooKeeper.digest(SERVERS_DIGEST).connect(zookeeper, 30_000);
  }

  /** A fresh directory under the module's test-data directory ({@code test.build.data}). */
  static Path newDir(String prefix) throws IOException {
    Path base = Path.of(System.getProperty("test.build.data", "target/test-data"));
    Files.createDirectories(base);
    return Files.createTempDirectory(base, prefix + "-");
  }

  /** A client of {@code cluster} acting as the user running the server (its superuser). */
  static IndexFsClient client(LocalCluster cluster) throws IOException {
    return client(cluster.zookeeperConnect(), cluster.clusterName());
  }

  static IndexFsClient client(String zookeeper, String clusterName) throws IOException {
    return client(zookeeper, clusterName, IndexFsConfig.CLIENT_FAILOVER_WAIT_MS.defaultValue());
  }

  /** A client that gives up on an unreachable slot after {@code failoverWaitMs} instead of the default. */
  static IndexFsClient client(String zookeeper, String clusterName, long failoverWaitMs) throws IOException {
    ClusterConnection connection = ClusterConnection.acquire(zookeeper, clusterName,
        IndexFsConfig.RPC_MAX_FRAME_BYTES.defaultValue(), 10_000);
    return new IndexFsClient(connection, IndexFsClient.caller(USER, List.of(), "test-client"), 30_000, failoverWaitMs);
  }

  /** Creates an empty file and closes it, as {@code hadoop fs -touchz} does (create, then complete). */
  static void createClosed(IndexFsClient client, String path) throws IOException {
    long id = client.create(path, 0644, false, 1, 1 << 20, false).getInodeId();
    client.complete(path, id, 0, new byte[0], null);
  }
}
