package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.Test;

/**
 * Listing pages of different caller threads spread over {@code indexfs.client.list-connections}
 * connections per server (a server answers a page on its connection's I/O thread); every other
 * call, and everything a single-threaded client does, keeps to one connection.
 */
class ListConnectionsTest {
  @Test
  void listingsOfSeveralThreadsSpreadOverTheListConnectionsAndNothingElseDoes() throws Exception {
    try (LocalCluster cluster = LocalCluster.builder(TestData.newDir("lanes")).start();
        ClusterConnection c = ClusterConnection.openUnshared(cluster.zookeeperConnect(), cluster.clusterName(),
            IndexFsConfig.RPC_MAX_FRAME_BYTES.defaultValue(), 10_000, IndexFsConfig.CLIENT_CACHE_ENTRIES.defaultValue(),
            null)) {
      IndexFsClient client = new IndexFsClient(c, IndexFsClient.caller(TestData.USER, List.of(), "lanes"), 30_000);
      // One thread, whatever it calls: one connection.
      CompletableFuture.runAsync(() -> {
        try {
          client.mkdirs("/d", 0755);
          TestData.createClosed(client, "/d/f");
          client.getFileStatus("/d/f");
          client.listAll("/d");
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      }).get();
      assertEquals(1, c.openConnections(0));
      // Threads that list take the lanes in turn: two connections, never more.
      for (int i = 0; i < 4; i++) {
        CompletableFuture.runAsync(() -> {
          try {
            client.listAll("/d");
            client.getFileStatus("/d/f");
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }, r -> new Thread(r).start()).get();
      }
      assertEquals(2, c.openConnections(0));
      assertThrows(IllegalArgumentException.class, () -> c.listConnections(0));
      assertThrows(IllegalArgumentException.class, () -> c.listConnections(17));
    }
  }
}
