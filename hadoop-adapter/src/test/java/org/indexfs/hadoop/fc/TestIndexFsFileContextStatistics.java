package org.indexfs.hadoop.fc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.fs.FCStatisticsBaseTest;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileSystem;
import org.indexfs.hadoop.IndexFsTestCluster;
import java.util.Map;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Hadoop's FileContext statistics suite through {@code IndexFs}: bytes written and read are
 * counted in the FileContext's statistics, per thread too, as HDFS counts them (every byte the
 * caller reads, positioned reads included; every byte it writes). Statistics are kept per file
 * system URI for the whole JVM, so this suite has a cluster (and a URI) of its own: the other
 * FileContext suites' bytes must not count here.
 */
public class TestIndexFsFileContextStatistics extends FCStatisticsBaseTest {
  private static LocalCluster cluster;

  @BeforeAll
  static void bindFileContext() throws IOException {
    cluster = IndexFsTestCluster.startCluster("fcstats", Map.of());
    fc = FileContext.getFileContext(getUri(), IndexFsTestCluster.conf(cluster));
  }

  @AfterAll
  static void stopCluster() {
    cluster.close();
  }

  private static URI getUri() {
    return URI.create(cluster.defaultFs());
  }

  @Override
  protected void verifyReadBytes(FileSystem.Statistics stats) {
    // The suite reads the file twice: a sequential read and a positioned read of one block each.
    assertEquals(2L * blockSize, stats.getBytesRead());
  }

  @Override
  protected void verifyWrittenBytes(FileSystem.Statistics stats) {
    // No checksum side file (unlike the local file system's .crc): exactly the bytes written.
    assertEquals(blockSize, stats.getBytesWritten());
  }

  @Override
  protected URI getFsUri() {
    return getUri();
  }
}
