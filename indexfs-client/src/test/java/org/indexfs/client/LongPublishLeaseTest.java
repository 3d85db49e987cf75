package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.indexfs.client.bulk.BulkInsertion;
import org.indexfs.client.bulk.DirectoryShipper;
import org.indexfs.client.bulk.LocalSubtree;
import org.indexfs.client.bulk.SstShipper;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.server.FaultPoints;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A holder stays the holder through a publish that takes longer than its lease — shipping the SST
 * slowly on the client, or ingesting it slowly on the server — as a large load's publishes do: the
 * renewer must not wait behind the publish for the subtree's lock (a 100-million-entry load lost its
 * lease so).
 */
class LongPublishLeaseTest {
  private static final long LEASE_MS = 1_500;
  private static final long SLOW_MS = 4_000;

  @TempDir
  Path work;

  private static void createFiles(LocalSubtree t, String dir, int from, int to) throws IOException {
    for (int i = from; i < to; i++) {
      t.complete(t.create(dir + "/f" + i, 0644, false, 1, 1 << 20).status().getInodeId(), 0, new byte[0], null);
    }
  }

  @Test
  void aPublishLongerThanTheLeaseKeepsTheHolder() throws Exception {
    try (LocalCluster cluster = LocalCluster.builder(work.resolve("cluster"))
            .set(IndexFsConfig.LOCALIZE_LEASE_MS.name(), String.valueOf(LEASE_MS)).start();
         LogCapture renewals = LogCapture.of(BulkInsertion.class);
         IndexFsClient holder = BulkPublishTest.client(cluster, TestData.USER, "slow-holder");
         IndexFsClient reader = BulkPublishTest.client(cluster, TestData.USER, "reader")) {
      DirectoryShipper direct = new DirectoryShipper(cluster.dataUri());
      AtomicBoolean slowShip = new AtomicBoolean(true);
      SstShipper slow = new SstShipper() {
        @Override
        public String ship(Path local, String directory) throws IOException {
          if (slowShip.getAndSet(false)) {
            sleep(SLOW_MS); // the client side of the publish, holding the subtree's lock
          }
          return direct.ship(local, directory);
        }

        @Override
        public void discard(String name) {
          direct.discard(name);
        }
      };
      BulkInsertion bulk = new BulkInsertion(holder, slow, "buffer", work.resolve("scratch"), 100_000, 1L << 30);
      LocalSubtree t = bulk.localize("/slow", 0777, false);
      createFiles(t, "/slow", 0, 100);
      assertEquals(100, t.publish(false).getIngested(), "published after a ship longer than the lease");

      AtomicBoolean slowIngest = new AtomicBoolean(true);
      FaultPoints.install(p -> {
        if (p.equals("publish.staged") && slowIngest.getAndSet(false)) {
          sleep(SLOW_MS); // the server side: validated, not yet ingested
        }
      });
      try {
        createFiles(t, "/slow", 100, 200);
        assertEquals(100, t.publish(false).getIngested(), "published after an ingest longer than the lease");
      } finally {
        FaultPoints.install(null);
      }
      createFiles(t, "/slow", 200, 250);
      assertEquals(50, t.publish(true).getIngested());
      assertEquals(250, reader.listAll("/slow").size());
      assertEquals(List.of(), renewals.messages().stream().filter(m -> m.contains("Could not renew")).toList(),
          "every renewal succeeded");
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
