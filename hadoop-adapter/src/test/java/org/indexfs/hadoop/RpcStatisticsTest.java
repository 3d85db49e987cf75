package org.indexfs.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageStatistics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The client's RPC counts are readable as the FileSystem's StorageStatistics. */
class RpcStatisticsTest {
  private static FileSystem fs;

  @BeforeAll
  static void open() throws IOException {
    IndexFsTestCluster.get();
    fs = FileSystem.newInstance(IndexFsTestCluster.uri(), IndexFsTestCluster.conf());
  }

  @AfterAll
  static void close() throws IOException {
    fs.close();
  }

  @Test
  void eachMetadataCallCountsItsRpcs() throws IOException {
    Path dir = new Path("/rpc-statistics/a/b");
    fs.mkdirs(dir);
    StorageStatistics stats = fs.getStorageStatistics();
    assertEquals("indexfs", stats.getScheme());
    long before = stats.getLong("rpc");
    long statsBefore = stats.getLong("rpc.get_file_status");
    fs.getFileStatus(dir);
    assertEquals(before + 1, stats.getLong("rpc"), "one slot: one RPC for getFileStatus at depth 3");
    assertEquals(statsBefore + 1, stats.getLong("rpc.get_file_status"));
    assertTrue(stats.isTracked("rpc.mkdirs"));
    boolean listed = false;
    for (var it = stats.getLongStatistics(); it.hasNext(); ) {
      listed |= it.next().getName().equals("rpc.mkdirs");
    }
    assertTrue(listed, "mkdirs appears among the statistics");
    stats.reset();
    assertEquals(0, stats.getLong("rpc"));
  }
}
