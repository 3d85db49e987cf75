package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.indexfs.client.admin.AdminClient;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.SlotReport;
import org.indexfs.server.SlotRunner;
import org.indexfs.server.local.LocalCluster;
import org.indexfs.server.store.MetadataStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Standbys (DESIGN §11): a server started with {@code --standby} follows the slot's journal and
 * takes the slot over when its owner stops — fencing it, replaying to the end, serving — while a
 * client writing all along sees no error; {@code admin -handover} moves the slot to a standby and
 * back; a standby started from nothing bootstraps from the latest checkpoint and then serves
 * exactly what the old owner held, record by record.
 */
class StandbyTest {
  private static LocalCluster cluster(Path work, String name) throws IOException {
    return LocalCluster.builder(work).clusterName(name)
        .set(IndexFsConfig.JOURNAL_ENABLED.name(), "true")
        .set(IndexFsConfig.JOURNAL_CHECKPOINT_RECORDS.name(), "300")
        .set(IndexFsConfig.JOURNAL_SEGMENT_BYTES.name(), "16384")
        .set(IndexFsConfig.ZOOKEEPER_SESSION_TIMEOUT_MS.name(), "3000")
        .set(IndexFsConfig.HOME_SYNC_INTERVAL_MS.name(), "200").start();
  }

  /** Creates and closes files under {@code dir} until stopped, recording each acknowledged one. */
  private static final class Writer implements AutoCloseable {
    final Queue<String> acked = new ConcurrentLinkedQueue<>();
    final Queue<Throwable> errors = new ConcurrentLinkedQueue<>();
    final AtomicBoolean stop = new AtomicBoolean();
    final Thread thread;

    Writer(IndexFsClient client, String dir) throws IOException {
      client.mkdirs(dir, 0755);
      thread = new Thread(() -> {
        try {
          for (int i = 0; !stop.get(); i++) {
            TestData.createClosed(client, dir + "/f" + i);
            acked.add("f" + i);
          }
        } catch (Throwable e) {
          errors.add(e);
        }
      }, "writer");
      thread.start();
    }

    void awaitMore(int n) throws InterruptedException {
      int target = acked.size() + n;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (acked.size() < target && errors.isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertTrue(errors.isEmpty(), () -> "an error reached the application: " + errors.peek());
      assertTrue(acked.size() >= target, "the writer stalled");
    }

    @Override
    public void close() throws InterruptedException {
      stop.set(true);
      thread.join(120_000);
    }
  }

  private static void waitFor(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertTrue(condition.getAsBoolean(), "waited 90 s for " + what);
  }

  private static Set<String> names(IndexFsClient client, String dir) throws IOException {
    Set<String> out = new HashSet<>();
    for (FileStatus s : client.listAll(dir)) {
      out.add(s.getName());
    }
    return out;
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void aStandbyTakesTheSlotOverWhenItsOwnerStopsWithNoErrorAtTheClient() throws Exception {
    try (LocalCluster cluster = cluster(TestData.newDir("standby-takeover"), "takeover");
         IndexFsClient client = Slots.client(cluster, TestData.USER, List.of())) {
      SlotRunner standby = cluster.startStandby(0);
      AdminClient admin = new AdminClient(client);
      waitFor(() -> {
        try {
          return admin.report(0).getStandbysCount() == 1;
        } catch (IOException e) {
          return false;
        }
      }, "the standby to register");
      SlotReport before = admin.report(0);
      assertEquals(1, before.getEpoch());
      assertTrue(before.getStandbys(0).startsWith("slot-0-standby-"), before.getStandbys(0));

      try (Writer w = new Writer(client, "/w")) {
        w.awaitMore(300);
        long stopped = System.nanoTime();
        cluster.stopServer(0);
        waitFor(() -> standby.current() != null, "the standby to serve");
        System.out.printf("Standby serving %.1f s after its owner stopped%n", (System.nanoTime() - stopped) / 1e9);
        w.awaitMore(300);
        w.close();
        assertTrue(w.errors.isEmpty(), () -> "an error reached the application: " + w.errors.peek());
        assertEquals(new HashSet<>(w.acked), names(client, "/w"), "exactly the acknowledged files");
      }
      SlotReport after = admin.report(0);
      assertEquals(2, after.getEpoch());
      assertNotEquals(before.getAddress(), after.getAddress());
    }
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void aHandoverMovesTheSlotToAStandbyAndBackWithNoErrorAtTheClient() throws Exception {
    try (LocalCluster cluster = cluster(TestData.newDir("standby-handover"), "handover");
         IndexFsClient client = Slots.client(cluster, TestData.USER, List.of())) {
      SlotRunner first = cluster.runners(0).get(0);
      SlotRunner standby = cluster.startStandby(0);
      AdminClient admin = new AdminClient(client);
      try (Writer w = new Writer(client, "/w")) {
        w.awaitMore(200);
        String there = admin.handover(0, "");
        assertNotNull(standby.current(), "the standby serves");
        assertEquals(there, standby.current().address().getHostString() + ":" + standby.current().address().getPort());
        waitFor(() -> first.standby() != null, "the old owner to stand by");
        w.awaitMore(200);
        String back = admin.handover(0, "slot-0");
        assertNotNull(first.current(), "named in the handover, the first server serves again");
        assertNull(standby.current());
        w.awaitMore(200);
        w.close();
        assertTrue(w.errors.isEmpty(), () -> "an error reached the application: " + w.errors.peek());
        assertEquals(new HashSet<>(w.acked), names(client, "/w"));
        assertNotEquals(there, back);
        assertEquals(3, admin.report(0).getEpoch());
      }
    }
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void aNewStandbyStartsFromTheLatestCheckpointAndServesIdenticalContents() throws Exception {
    Path work = TestData.newDir("standby-checkpoint");
    try (LocalCluster cluster = cluster(work, "checkpoint");
         IndexFsClient client = Slots.client(cluster, TestData.USER, List.of())) {
      client.mkdirs("/c", 0755);
      for (int i = 0; i < 600; i++) {
        TestData.createClosed(client, "/c/f" + i);
        if (i % 7 == 0) {
          client.rename("/c/f" + i, "/c/g" + i);
        }
        if (i == 400) {
          assertTrue(cluster.server(0).journal().checkpointNow().seq() > 0);
        }
      }
      SlotRunner fresh = cluster.startStandby(0);
      assertTrue(fresh.standby().startedFromCheckpoint() > 0, "it started from a checkpoint, not from the first record");
      waitFor(() -> {
        try {
          return fresh.standby().position().equals(cluster.server(0).namespace().store().position());
        } catch (IOException e) {
          return false;
        }
      }, "the standby to catch up");
      cluster.stopServer(0);
      waitFor(() -> fresh.current() != null, "the new standby to serve");
      try (MetadataStore old = MetadataStore.open(work.resolve("slot-0"))) {
        MetadataStore now = fresh.current().namespace().store();
        assertEquals(old.position().seq(), now.position().seq());
        assertNull(StoreContents.firstDifference(StoreContents.of(old), StoreContents.of(now)),
            "the new owner's store differs from the old owner's");
      }
      assertEquals(600, client.listAll("/c").size());
    }
  }
}
