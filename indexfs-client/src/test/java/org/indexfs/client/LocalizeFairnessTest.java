package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.Test;

/**
 * Issue 31, item 10: a client that gives its localization lease on a shared directory up and takes
 * it again at once, over and over, delayed another user's touchz inside to 62 s: that user's
 * retries kept finding the directory localized. Now a client refused inside a localized subtree
 * goes first: nobody else may localize the directory for a while after its refusal, so its touchz
 * waits at most a lease period and a retry.
 */
class LocalizeFairnessTest {
  private static final long LEASE_MS = 2_000;

  @Test
  void aHolderRetakingItsLeaseCannotKeepAnotherClientOut() throws Exception {
    try (LocalCluster cluster = LocalCluster.builder(TestData.newDir("localize-fair"))
        .set(IndexFsConfig.LOCALIZE_LEASE_MS.name(), String.valueOf(LEASE_MS)).start();
        IndexFsClient holder = client(cluster, "greedy");
        IndexFsClient other = client(cluster, "touchz")) {
      holder.mkdirs("/shared", 0777);
      holder.waitForLocalized(0);
      other.waitForLocalized(30_000); // before the fix the touchz below failed after this long
      AtomicBoolean stop = new AtomicBoolean();
      AtomicInteger grants = new AtomicInteger();
      AtomicInteger refusals = new AtomicInteger();
      java.util.concurrent.atomic.AtomicReference<Exception> broken = new java.util.concurrent.atomic.AtomicReference<>();
      Thread greedy = new Thread(() -> {
        while (!stop.get()) {
          try {
            holder.localize("/shared", false, 0);
            grants.incrementAndGet();
            Thread.sleep(200);
            holder.publish("/shared", "", true);
          } catch (IndexFsException e) {
            if (e.code() == Code.SUBTREE_LOCALIZED) {
              refusals.incrementAndGet();
              pause(20);
            } else if (!stop.get()) {
              broken.compareAndSet(null, e);
            }
          } catch (Exception e) {
            if (!stop.get()) {
              broken.compareAndSet(null, e);
            }
          }
        }
      }, "greedy-holder");
      greedy.start();
      try {
        while (grants.get() < 3 && broken.get() == null) {
          Thread.sleep(10);
        }
        long t0 = System.nanoTime();
        TestData.createClosed(other, "/shared/touched");
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertEquals("touched", other.getFileStatus("/shared/touched").getName());
        assertTrue(ms < LEASE_MS + 6_000, "the touchz took " + ms + " ms");
        assertTrue(refusals.get() > 0, "the holder was kept from taking its lease again meanwhile");
        assertEquals(null, broken.get(), "the holder's loop failed otherwise");
      } finally {
        stop.set(true);
        greedy.join(30_000);
      }
    }
  }

  private static void pause(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static IndexFsClient client(LocalCluster cluster, String id) throws Exception {
    ClusterConnection c = ClusterConnection.openUnshared(cluster.zookeeperConnect(), cluster.clusterName(),
        IndexFsConfig.RPC_MAX_FRAME_BYTES.defaultValue(), 10_000);
    return new IndexFsClient(c, IndexFsClient.caller(TestData.USER, List.of(), id), 30_000);
  }
}
