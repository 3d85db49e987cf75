package org.indexfs.hadoop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.indexfs.server.local.LocalCluster;

/**
 * One embedded cluster (real ZooKeeper, real RocksDB, local data directory) shared by every test
 * class of this JVM, so the contract suites do not pay a cluster start each. Closed at JVM exit.
 */
public final class IndexFsTestCluster {
  private static LocalCluster cluster;

  private IndexFsTestCluster() {}

  public static synchronized LocalCluster get() {
    if (cluster == null) {
      try {
        cluster = LocalCluster.builder(newWorkDir("shared")).start();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      LocalCluster started = cluster;
      Runtime.getRuntime().addShutdownHook(new Thread(started::close, "test-cluster-shutdown"));
    }
    return cluster;
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
