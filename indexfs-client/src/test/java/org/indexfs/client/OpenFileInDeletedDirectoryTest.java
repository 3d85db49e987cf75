package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A directory deleted while a file below it is open for writing (what fsck found after
 * RoutingCodesNeverLeakTest's races: write leases of files that no longer exist). HDFS's delete
 * removes the leases below the deleted directory; here the reclaimer that removes the file's entry
 * releases its lease in the same write, not the lease monitor's sweep a soft limit later.
 */
class OpenFileInDeletedDirectoryTest {
  @TempDir
  static Path workDir;
  static LocalCluster cluster;
  static IndexFsClient client;

  @BeforeAll
  static void start() throws IOException {
    cluster = LocalCluster.builder(workDir).clusterName("openindeleted").servers(1)
        .set(IndexFsConfig.WAL_SYNC.name(), "false").start();
    client = Slots.client(cluster, TestData.USER, List.of());
  }

  @AfterAll
  static void stop() {
    client.close();
    cluster.close();
  }

  @Test
  void theWritersLeaseGoesWithTheDeletedDirectory() throws Exception {
    client.mkdirs("/od/sub", 0777);
    long id = client.create("/od/sub/open", 0644, false, 1, 1 << 20, false).getInodeId();
    assertNotNull(cluster.server(0).writeLeases().get(id), "the writer holds a lease");
    assertTrue(client.delete("/od", true));
    long until = System.currentTimeMillis() + 10_000;
    while (cluster.server(0).writeLeases().get(id) != null) {
      assertTrue(System.currentTimeMillis() < until, "the lease of the deleted open file is released");
      Thread.sleep(50);
    }
  }
}
