package org.indexfs.hadoop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.server.local.LocalCluster;
import org.indexfs.server.local.LocalHdfs;

/**
 * The test JVM's clusters. One real HDFS ({@link LocalHdfs}: a MiniDFSCluster with one NameNode and
 * three DataNodes) is the data tier of everything, and one embedded IndexFS cluster (real
 * ZooKeeper, real RocksDB) on top of it is shared by every test class, so the suites do not pay a
 * cluster start each. Tests that need other server settings start their own IndexFS cluster on
 * the same HDFS with {@link #startCluster}. Everything is closed at JVM exit.
 */
public final class IndexFsTestCluster {
  /** Where the shared cluster keeps its objects on HDFS. */
  public static final String DATA_ROOT = "/indexfs-data";

  /**
   * The test users' groups, as every test server resolves them (servers ignore the groups a client
   * sends, DESIGN §14): the same names the tests give {@code UserGroupInformation.createUserForTesting},
   * so a permission test means on the server what it says in the test.
   */
  public static final String TEST_GROUPS = "alice=alicegroup;bob=bobgroup;dora=doragroup;carol=supergroup;"
      + "erin=erins;mallory=malloryg";
  /** May act for alice (only), on the shared HDFS and on every test IndexFS cluster. */
  public static final String PROXY_USER = "oozie";
  public static final String GROUP_MAPPING_KEY = "hadoop.user.group.static.mapping.overrides";

  private static LocalHdfs hdfs;
  private static LocalCluster cluster;
  private static LocalCluster objectsOnly;

  private IndexFsTestCluster() {}

  /** The shared HDFS data tier, started on first use. */
  public static synchronized LocalHdfs hdfs() {
    if (hdfs == null) {
      try {
        // Tests write files with small blocks (HDFS's own tests do the same).
        hdfs = LocalHdfs.start(newWorkDir("hdfs"), LocalHdfs.DEFAULT_DATANODES,
            Map.of("dfs.namenode.fs-limits.min-block-size", "0",
                // The proxy pair the security tests allow on both HDFS and IndexFS.
                "hadoop.proxyuser." + PROXY_USER + ".users", "alice",
                "hadoop.proxyuser." + PROXY_USER + ".hosts", "*"), false);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      Runtime.getRuntime().addShutdownHook(new Thread(IndexFsTestCluster::shutdown, "test-cluster-shutdown"));
    }
    return hdfs;
  }

  public static synchronized LocalCluster get() {
    if (cluster == null) {
      cluster = startCluster("shared", Map.of(IndexFsConfig.DATA_URI.name(), hdfs().uri() + DATA_ROOT));
    }
    return cluster;
  }

  /**
   * A shared cluster that keeps no file inline ({@code indexfs.inline.max-bytes=0}): every byte of
   * every file goes through an HDFS object, so the contract suites can be run against the data path
   * alone.
   */
  public static synchronized LocalCluster objectsOnly() {
    if (objectsOnly == null) {
      objectsOnly = startCluster("objects", Map.of(IndexFsConfig.INLINE_MAX_BYTES.name(), "0"));
    }
    return objectsOnly;
  }

  /**
   * A separate IndexFS cluster on the shared HDFS, for tests that need other settings; its objects
   * live under {@code /<name>-data} unless {@code settings} say otherwise. The caller closes it.
   */
  public static LocalCluster startCluster(String name, Map<String, String> settings) {
    // -Dindexfs.test.servers=N runs every suite against N slots (N servers in this process).
    return startCluster(name, Integer.getInteger("indexfs.test.servers", 1), settings);
  }

  /** As above, with {@code servers} slots whatever the run's setting. */
  public static LocalCluster startCluster(String name, int servers, Map<String, String> settings) {
    try {
      LocalCluster.Builder b = LocalCluster.builder(newWorkDir(name)).clusterName(name)
          .servers(servers)
          .set(IndexFsConfig.DATA_URI.name(), hdfs().uri() + "/" + name + "-data")
          .set(GROUP_MAPPING_KEY, TEST_GROUPS)
          .set("hadoop.proxyuser." + PROXY_USER + ".users", "alice")
          .set("hadoop.proxyuser." + PROXY_USER + ".hosts", "*")
          // The same limit as the HDFS underneath (tests use small blocks, as HDFS's own tests do).
          .set(IndexFsConfig.MIN_BLOCK_SIZE.name(), "0");
      // -Dindexfs.test.split-threshold=K makes small test directories split (GIGA+) too.
      String threshold = System.getProperty("indexfs.test.split-threshold");
      if (threshold != null) {
        b.set(IndexFsConfig.SPLIT_THRESHOLD.name(), threshold);
      }
      settings.forEach(b::set);
      return b.start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static synchronized void shutdown() {
    if (cluster != null) {
      cluster.close();
    }
    if (objectsOnly != null) {
      objectsOnly.close();
    }
    if (hdfs != null) {
      hdfs.close();
    }
  }

  /** A fresh directory under the module's test-data directory. */
  public static Path newWorkDir(String prefix) throws IOException {
    Path base = Path.of(System.getProperty("test.build.data", "target/test-data"));
    Files.createDirectories(base);
    return Files.createTempDirectory(base, prefix + "-");
  }

  /** A Hadoop configuration pointing at {@code c}, with FileContext support. */
  public static Configuration conf(LocalCluster c) {
    Configuration conf = new Configuration();
    for (Map.Entry<String, String> e : c.clientConf().entrySet()) {
      conf.set(e.getKey(), e.getValue());
    }
    conf.set("fs.AbstractFileSystem.indexfs.impl", IndexFs.class.getName());
    return conf;
  }

  public static Configuration conf() {
    return conf(get());
  }

  public static URI uri() {
    return URI.create(get().defaultFs());
  }
}
