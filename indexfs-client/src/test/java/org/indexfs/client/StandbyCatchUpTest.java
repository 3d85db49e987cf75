package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.server.SlotRunner;
import org.indexfs.server.local.LocalCluster;
import org.indexfs.server.store.MetadataStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A standby that was down while its slot took 100,000 mutations (issue 14) comes back on its own
 * directory, catches up from the journal (or the latest checkpoint, when the records it missed were
 * pruned), and then serves exactly what the active held, entry by entry.
 */
class StandbyCatchUpTest {
  private static final int MUTATIONS = Integer.getInteger("indexfs.standby.catchup.mutations", 100_000);
  private static final int THREADS = 8;

  @Test
  @Timeout(value = 8, unit = TimeUnit.MINUTES)
  void aStandbyDownFor100kMutationsCatchesUpAndServesIdenticalContents() throws Exception {
    Path work = TestData.newDir("standby-catchup");
    try (LocalCluster cluster = LocalCluster.builder(work).clusterName("catchup")
            .set(IndexFsConfig.JOURNAL_ENABLED.name(), "true")
            .set(IndexFsConfig.ZOOKEEPER_SESSION_TIMEOUT_MS.name(), "3000").start();
         IndexFsClient client = Slots.client(cluster, TestData.USER, List.of())) {
      SlotRunner standby = cluster.startStandby(0, 1);
      client.mkdirs("/before", 0755);
      awaitCaughtUp(cluster, standby);
      cluster.stop(standby);
      long start = System.nanoTime();
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      List<Future<?>> writers = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        String dir = "/m" + t;
        writers.add(pool.submit(() -> {
          client.mkdirs(dir, 0755);
          for (int i = 1; i < MUTATIONS / THREADS; i++) {
            client.mkdirs(dir + "/d" + i, 0755);
          }
          return null;
        }));
      }
      for (Future<?> w : writers) {
        w.get();
      }
      pool.shutdown();
      long written = System.nanoTime();
      long behind = cluster.server(0).namespace().store().position().seq();
      SlotRunner back = cluster.startStandby(0, 1); // on the directory it had
      awaitCaughtUp(cluster, back);
      long caughtUp = System.nanoTime();
      System.out.printf("%,d mutations in %.1f s while the standby was down; back, it caught up to record %,d in %.1f s"
              + " (from checkpoint %d)%n", MUTATIONS, (written - start) / 1e9, behind, (caughtUp - written) / 1e9,
          back.standby().startedFromCheckpoint());
      cluster.stopServer(0);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
      while (back.current() == null) {
        assertTrue(System.nanoTime() < deadline, "the standby takes over");
        Thread.sleep(20);
      }
      try (MetadataStore old = MetadataStore.open(work.resolve("slot-0"))) {
        MetadataStore now = back.current().namespace().store();
        assertEquals(old.position().seq(), now.position().seq());
        assertNull(StoreContents.firstDifference(StoreContents.of(old), StoreContents.of(now)),
            "the standby's store differs from the old active's");
      }
      for (int t = 0; t < THREADS; t++) {
        assertEquals(MUTATIONS / THREADS - 1, client.listAll("/m" + t).size(), "/m" + t + " through the standby");
      }
    }
  }

  /** Stops slot {@code slot}'s active and waits until {@code standby} serves; returns the seconds it took. */
  static double failOver(LocalCluster cluster, int slot, SlotRunner standby) throws InterruptedException {
    long stopped = System.nanoTime();
    cluster.stopServer(slot);
    long deadline = stopped + TimeUnit.SECONDS.toNanos(90);
    while (standby.current() == null) {
      assertTrue(System.nanoTime() < deadline, "the standby of slot " + slot + " takes over");
      Thread.sleep(20);
    }
    return (System.nanoTime() - stopped) / 1e9;
  }

  static void awaitCaughtUp(LocalCluster cluster, SlotRunner standby) throws Exception {
    awaitCaughtUp(cluster, 0, standby);
  }

  /** Waits until {@code standby} has applied everything slot {@code slot}'s active has written. */
  static void awaitCaughtUp(LocalCluster cluster, int slot, SlotRunner standby) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (standby.standby() == null
        || !standby.standby().position().equals(cluster.server(slot).namespace().store().position())) {
      assertTrue(System.nanoTime() < deadline, "the standby catches up within 3 minutes");
      Thread.sleep(50);
    }
  }
}
