package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.indexfs.client.admin.AdminClient;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.proto.FileStatus;
import org.indexfs.server.local.EmbeddedZooKeeper;
import org.indexfs.server.membership.ClusterFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Growth by handovers (issue 14): a cluster of 8 slots on 2 machines (server processes of 4 slots
 * each) gets 2 more machines, which start as standbys of 2 slots each; handing those slots over
 * moves them while writers keep going. No error reaches the writers, every acknowledged file is
 * there, and each of the 4 machines serves 2 slots and their share of the calls.
 */
class GrowthTest {
  private static final int DIRS = 16;
  private static final int WRITERS = 4;

  @Test
  @Timeout(value = 6, unit = TimeUnit.MINUTES)
  void twoMachinesOfEightSlotsBecomeFourByHandoversUnderLoad() throws Exception {
    Path work = TestData.newDir("growth");
    String cluster = "growth";
    try (EmbeddedZooKeeper zk = new EmbeddedZooKeeper(work.resolve("zookeeper").toFile(), 0)) {
      try (CuratorFramework c = TestData.asServers(zk.connectString())) {
        ClusterFormat.format(c, cluster, 8);
      }
      List<MachineProcess> machines = new ArrayList<>();
      try {
        MachineProcess a = machine(machines, work, zk, "machine-a", "0,2,4,6", false);
        MachineProcess b = machine(machines, work, zk, "machine-b", "1,3,5,7", false);
        assertEquals(Set.of(0, 2, 4, 6), a.serving());
        assertEquals(Set.of(1, 3, 5, 7), b.serving());
        try (IndexFsClient client = TestData.client(zk.connectString(), cluster)) {
          AdminClient admin = new AdminClient(client);
          for (int d = 0; d < DIRS; d++) {
            client.mkdirs("/g" + d, 0755);
          }
          Writers w = new Writers(client);
          w.awaitMore(400);
          MachineProcess m3 = machine(machines, work, zk, "machine-c", "2,6", true);
          MachineProcess m4 = machine(machines, work, zk, "machine-d", "3,7", true);
          long[] before = served(admin);
          for (int slot : new int[] {2, 6}) {
            admin.handover(slot, "machine-c");
            w.awaitMore(100);
          }
          for (int slot : new int[] {3, 7}) {
            admin.handover(slot, "machine-d");
            w.awaitMore(100);
          }
          waitFor(() -> m3.serving().equals(Set.of(2, 6)) && m4.serving().equals(Set.of(3, 7)),
              "the new machines to serve their slots");
          w.awaitMore(800);
          w.close();
          assertTrue(w.errors.isEmpty(), () -> "an error reached a writer: " + w.errors.peek());
          assertEquals(Set.of(0, 4), a.serving());
          assertEquals(Set.of(1, 5), b.serving());
          assertEquals(Set.of(2, 6), a.standing(), "handed over, machine-a stands by for its old slots");
          assertEquals(Set.of(3, 7), b.standing());
          Set<String> listed = new HashSet<>();
          for (int d = 0; d < DIRS; d++) {
            for (FileStatus s : client.listAll("/g" + d)) {
              listed.add("/g" + d + "/" + s.getName());
            }
          }
          assertEquals(new HashSet<>(w.acked), listed, "exactly the acknowledged files");
          long[] after = served(admin);
          Map<String, Long> perMachine = new LinkedHashMap<>();
          for (MachineProcess m : machines) {
            long calls = 0;
            for (int slot : m.serving()) {
              calls += after[slot] - (m == m3 || m == m4 ? 0 : before[slot]);
            }
            perMachine.put(m.log().getFileName().toString().replace(".log", ""), calls);
          }
          System.out.printf("%,d files acknowledged, 0 errors; calls served per machine since the growth began: %s%n",
              w.acked.size(), perMachine);
          for (Map.Entry<String, Long> e : perMachine.entrySet()) {
            assertTrue(e.getValue() > 0, e.getKey() + " serves calls: " + perMachine);
          }
        }
      } finally {
        for (MachineProcess m : machines) {
          m.close();
        }
      }
    }
  }

  private static MachineProcess machine(List<MachineProcess> machines, Path work, EmbeddedZooKeeper zk, String name,
      String slots, boolean standby) throws Exception {
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put(IndexFsConfig.SERVER_SLOTS.name(), slots);
    conf.put(IndexFsConfig.SERVER_DIR.name(), work.resolve(name).toString());
    conf.put(IndexFsConfig.SERVER_NAME.name(), name);
    conf.put(IndexFsConfig.SERVER_STANDBY.name(), String.valueOf(standby));
    conf.put(IndexFsConfig.ZOOKEEPER_QUORUM.name(), zk.connectString());
    conf.put(IndexFsConfig.SECURITY_ZOOKEEPER_DIGEST.name(), TestData.SERVERS_DIGEST);
    conf.put(IndexFsConfig.CLUSTER_NAME.name(), "growth");
    conf.put(IndexFsConfig.DATA_URI.name(), work.resolve("data").toUri().toString().replaceAll("/$", ""));
    conf.put(IndexFsConfig.JOURNAL_ENABLED.name(), "true");
    conf.put(IndexFsConfig.HOME_SYNC_INTERVAL_MS.name(), "500");
    conf.put(IndexFsConfig.HTTP_PORT.name(), "-1");
    conf.put(IndexFsConfig.SERVER_HANDLERS.name(), "8");
    MachineProcess m = MachineProcess.start(conf, work.resolve(name + ".log"));
    machines.add(m);
    return m;
  }

  /** Operations served so far by each slot's current owner. */
  private static long[] served(AdminClient admin) throws Exception {
    long[] out = new long[8];
    for (int slot = 0; slot < 8; slot++) {
      out[slot] = admin.report(slot).getOperationsServed();
    }
    return out;
  }

  private static void waitFor(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertTrue(condition.getAsBoolean(), "waited 90 s for " + what);
  }

  /** Writers creating files across the directories and renaming some within them, recording what was acknowledged. */
  private static final class Writers implements AutoCloseable {
    final Queue<String> acked = new ConcurrentLinkedQueue<>();
    final Queue<Throwable> errors = new ConcurrentLinkedQueue<>();
    final AtomicBoolean stop = new AtomicBoolean();
    final List<Thread> threads = new ArrayList<>();

    Writers(IndexFsClient client) {
      for (int t = 0; t < WRITERS; t++) {
        int me = t;
        Thread th = new Thread(() -> {
          try {
            for (int i = 0; !stop.get(); i++) {
              String dir = "/g" + ((i * WRITERS + me) % DIRS);
              String path = dir + "/w" + me + "-" + i;
              TestData.createClosed(client, path);
              if (i % 5 == 4) {
                assertTrue(client.rename(path, path + ".r"));
                path = path + ".r";
              }
              acked.add(path);
            }
          } catch (Throwable e) {
            errors.add(e);
          }
        }, "growth-writer-" + t);
        threads.add(th);
        th.start();
      }
    }

    void awaitMore(int n) throws InterruptedException {
      int target = acked.size() + n;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (acked.size() < target && errors.isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertTrue(errors.isEmpty(), () -> "an error reached a writer: " + errors.peek());
      assertTrue(acked.size() >= target, "the writers stalled");
    }

    @Override
    public void close() throws InterruptedException {
      stop.set(true);
      for (Thread t : threads) {
        t.join(120_000);
      }
    }
  }
}
