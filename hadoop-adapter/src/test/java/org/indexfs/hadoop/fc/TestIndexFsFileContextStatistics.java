package org.indexfs.hadoop.fc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.fs.FCStatisticsBaseTest;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileSystem;
import org.indexfs.hadoop.IndexFsTestCluster;
import org.junit.jupiter.api.BeforeAll;

/**
 * Hadoop's FileContext statistics suite through {@code IndexFs}: bytes written and read are
 * counted in the FileContext's statistics, per thread too, as HDFS counts them (every byte the
 * caller reads, positioned reads included; every byte it writes).
 */
public class TestIndexFsFileContextStatistics extends FCStatisticsBaseTest {
  @BeforeAll
  static void bindFileContext() throws IOException {
    fc = FileContext.getFileContext(IndexFsTestCluster.uri(), IndexFsTestCluster.conf());
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
    return IndexFsTestCluster.uri();
  }
}
