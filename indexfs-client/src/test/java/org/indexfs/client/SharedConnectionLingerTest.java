package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.Test;

/**
 * A process that opens clients in turn (FsShell commands, tasks, FileContext calls) reuses the
 * shared connection its last client left for {@code indexfs.client.connection-linger-ms}, as
 * Hadoop's IPC client keeps an idle connection; after that it is closed.
 */
class SharedConnectionLingerTest {
  private static final int FRAME = IndexFsConfig.RPC_MAX_FRAME_BYTES.defaultValue();

  private static ClusterConnection acquire(LocalCluster cluster, long lingerMs) throws Exception {
    return ClusterConnection.acquire(cluster.zookeeperConnect(), cluster.clusterName(), FRAME, 10_000,
        IndexFsConfig.CLIENT_CACHE_ENTRIES.defaultValue(), null, lingerMs);
  }

  private static void use(ClusterConnection c, String dir) throws Exception {
    IndexFsClient client = new IndexFsClient(c, IndexFsClient.caller(TestData.USER, List.of(), "linger"), 30_000);
    assertTrue(client.mkdirs(dir, 0755));
  }

  @Test
  void theNextClientWithinTheLingerTakesTheSameConnectionAndLaterOnesANewOne() throws Exception {
    try (LocalCluster cluster = LocalCluster.builder(TestData.newDir("linger")).start()) {
      ClusterConnection first = acquire(cluster, 1_500);
      use(first, "/a");
      first.close();
      assertTrue(first.connectedTo(0), "lingers, connected");
      ClusterConnection second = acquire(cluster, 1_500);
      assertSame(first, second, "taken again within the linger");
      use(second, "/b");
      second.close();
      long deadline = System.currentTimeMillis() + 20_000;
      while (second.connectedTo(0) && System.currentTimeMillis() < deadline) {
        Thread.sleep(100);
      }
      assertFalse(second.connectedTo(0), "closed once the linger passed unused");
      ClusterConnection third = acquire(cluster, 1_500);
      try {
        assertNotSame(second, third, "a new connection after the linger");
        use(third, "/c");
      } finally {
        third.close();
      }
    }
  }

  @Test
  void aClientClosedTwiceReleasesTheSharedConnectionOnce() throws Exception {
    try (LocalCluster cluster = LocalCluster.builder(TestData.newDir("twice")).start()) {
      ClusterConnection mine = acquire(cluster, 0);
      ClusterConnection other = acquire(cluster, 0);
      assertSame(mine, other);
      IndexFsClient client = new IndexFsClient(mine, IndexFsClient.caller(TestData.USER, List.of(), "twice"), 30_000);
      client.close();
      client.close(); // Hadoop closes a FileSystem whose initialize failed after it closed its client
      try {
        use(other, "/still-mine"); // the other user's connection was not taken from under it
        assertTrue(other.connectedTo(0));
      } finally {
        other.close();
      }
      assertFalse(other.connectedTo(0), "its own close, the last, closes it");
    }
  }

  @Test
  void withNoLingerTheLastCloseClosesIt() throws Exception {
    try (LocalCluster cluster = LocalCluster.builder(TestData.newDir("no-linger")).start()) {
      ClusterConnection first = acquire(cluster, 0);
      use(first, "/a");
      first.close();
      assertFalse(first.connectedTo(0));
      ClusterConnection second = acquire(cluster, 0);
      try {
        assertNotSame(first, second);
        use(second, "/b");
      } finally {
        second.close();
      }
    }
  }
}
