package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.indexfs.proto.FileStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Failover of real processes (DESIGN §11): three slots, each served by one process with a standby
 * process following its journal. Under a sync workload of mkdirs, creates and renames within and
 * across slots, the active of a slot is killed with SIGKILL (the killed one comes back as a
 * standby), then another active is paused with SIGSTOP until its standby serves and resumed: no
 * acknowledged operation is lost or applied twice, no error reaches the application, the paused
 * writer steps down to a standby, and each failover's time is measured — by default, with a 6 s
 * ZooKeeper session. The build runs a short round (3 kills); {@code bin/indexfs failover --kills 10}
 * (or {@code -Dindexfs.failover.kills=10}) runs the ten.
 */
class FailoverTest {
  private static final int SLOTS = 3;
  private static final int WRITERS = 3;
  private static final int KILLS = Integer.getInteger("indexfs.failover.kills", 3);

  /** What a writer left behind that the final namespace must show: its path and whether it is a directory. */
  private record Acked(String path, boolean dir) {}

  private static final class Workload implements AutoCloseable {
    final Queue<Acked> acked = new ConcurrentLinkedQueue<>();
    final Queue<Throwable> errors = new ConcurrentLinkedQueue<>();
    final AtomicBoolean stop = new AtomicBoolean();
    final List<Thread> threads = new ArrayList<>();
    final List<String> dirs = new ArrayList<>();

    Workload(IndexFsClient client) throws IOException {
      for (int w = 0; w < WRITERS; w++) {
        FileStatus a = Slots.dirNotOn(client, "/", "w" + w + "a", -1);
        FileStatus b = Slots.dirNotOn(client, "/", "w" + w + "b", a.getZerothSlot());
        String da = "/" + a.getName();
        String db = "/" + b.getName();
        dirs.add(da);
        dirs.add(db);
        Thread t = new Thread(() -> run(client, da, db), "writer-" + w);
        threads.add(t);
        t.start();
      }
    }

    /** Per step: a directory, a file renamed within its directory, a file renamed to the other slot. */
    private void run(IndexFsClient client, String da, String db) {
      try {
        for (int i = 0; !stop.get(); i++) {
          client.mkdirs(da + "/d" + i, 0755);
          acked.add(new Acked(da + "/d" + i, true));
          TestData.createClosed(client, da + "/g" + i);
          if (!client.rename(da + "/g" + i, da + "/h" + i)) {
            throw new AssertionError("rename within " + da + " answered false");
          }
          acked.add(new Acked(da + "/h" + i, false));
          TestData.createClosed(client, da + "/f" + i);
          if (!client.rename(da + "/f" + i, db + "/f" + i)) {
            throw new AssertionError("rename to " + db + " answered false");
          }
          acked.add(new Acked(db + "/f" + i, false));
        }
      } catch (Throwable e) {
        errors.add(e);
      }
    }

    void awaitMore(int n) throws InterruptedException {
      int target = acked.size() + n;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
      while (acked.size() < target && errors.isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertTrue(errors.isEmpty(), () -> "an error reached the application: " + errors.peek());
      assertTrue(acked.size() >= target, "the workload stalled");
    }

    @Override
    public void close() throws InterruptedException {
      stop.set(true);
      for (Thread t : threads) {
        t.join(180_000);
        assertFalse(t.isAlive(), t.getName() + " did not finish");
      }
    }
  }

  @Test
  @Timeout(value = 20, unit = TimeUnit.MINUTES)
  void tenKillsOfActivesLoseNothingDuplicateNothingAndShowNoError() throws Exception {
    try (ProcessCluster cluster = new ProcessCluster(TestData.newDir("failover"), "failover", SLOTS, Map.of());
         IndexFsClient client = TestData.client(cluster.zk.connectString(), "failover")) {
      List<Double> failovers = new ArrayList<>();
      try (Workload work = new Workload(client)) {
        work.awaitMore(150);
        for (int kill = 0; kill < KILLS; kill++) {
          ProcessCluster.Slot slot = cluster.slots.get(kill % SLOTS);
          int active = slot.active();
          assertTrue(active >= 0, "slot " + slot.slot + " has an active process");
          long killed = System.nanoTime();
          slot.servers[active].kill();
          slot.servers[1 - active].awaitServing(120_000);
          double seconds = (System.nanoTime() - killed) / 1e9;
          failovers.add(seconds);
          System.out.printf("Kill %d: slot %d failed over in %.1f s%n", kill + 1, slot.slot, seconds);
          cluster.restartAsStandby(slot.slot, active);
          work.awaitMore(120);
        }
        // A paused active (a stalled machine): its standby takes over once its session ends; resumed,
        // it finds itself superseded and fenced, acknowledges nothing more and steps down to a standby.
        ProcessCluster.Slot slot = cluster.slots.get(KILLS % SLOTS);
        int paused = slot.active();
        assertTrue(paused >= 0, "slot " + slot.slot + " has an active process");
        long stopped = System.nanoTime();
        slot.servers[paused].signal("STOP");
        slot.servers[1 - paused].awaitServing(120_000);
        double pauseFailover = (System.nanoTime() - stopped) / 1e9;
        slot.servers[paused].signal("CONT");
        slot.servers[paused].awaitStandby(120_000);
        System.out.printf("Pause: slot %d served by its standby %.1f s after its active was stopped;"
            + " the resumed one stepped down to a standby%n", slot.slot, pauseFailover);
        work.awaitMore(120);
        work.close();
        assertExactlyTheAcknowledged(work, client);
        List<Double> sorted = new ArrayList<>(failovers);
        Collections.sort(sorted);
        System.out.printf("Failover: %d kills and 1 pause, %d acknowledged operations, 0 errors, 0 lost,"
            + " 0 duplicated; failover time per kill p50 %.1f s, max %.1f s (ZooKeeper session 6 s)%n", KILLS, work.acked.size(),
            sorted.get(sorted.size() / 2), sorted.get(sorted.size() - 1));
        assertEquals(KILLS, failovers.size());
      }
    }
  }

  /** No error reached the application, and the final namespace holds exactly the acknowledged entries, each once. */
  private static void assertExactlyTheAcknowledged(Workload work, IndexFsClient client) throws IOException {
    assertTrue(work.errors.isEmpty(), () -> work.errors.size() + " errors reached the application, e.g. "
        + work.errors.peek());
    Set<String> expected = new HashSet<>();
    for (Acked a : work.acked) {
      assertTrue(expected.add(a.path()), "acknowledged twice: " + a.path());
    }
    Set<String> listed = new HashSet<>();
    for (String d : work.dirs) {
      for (FileStatus s : client.listAll(d)) {
        listed.add(d + "/" + s.getName());
      }
    }
    Set<String> lost = new HashSet<>(expected);
    lost.removeAll(listed);
    Set<String> extra = new HashSet<>(listed);
    extra.removeAll(expected);
    assertTrue(lost.isEmpty(), lost.size() + " acknowledged entries lost, e.g. " + lost.stream().limit(5).toList());
    assertTrue(extra.isEmpty(), extra.size() + " entries nobody acknowledged, e.g. " + extra.stream().limit(5).toList());
  }

  private static final DateTimeFormatter LOG_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS");

  /** The time of the first line of {@code log} at or after {@code since} that contains {@code text}. */
  private static LocalDateTime firstLine(Path log, String text, LocalDateTime since) throws IOException {
    for (String line : Files.readAllLines(log)) {
      if (line.length() > 23 && Character.isDigit(line.charAt(0)) && line.contains(text)) {
        LocalDateTime at = LocalDateTime.parse(line.substring(0, 23), LOG_TIME);
        if (!at.isBefore(since)) {
          return at;
        }
      }
    }
    throw new AssertionError("no line with '" + text + "' in " + log + " since " + since);
  }

  /**
   * A partitioned active (DESIGN §11), on hosts of their own (network namespaces): two slots, each an
   * active and a standby. The active of slot 0 — which holds the root, so every call needs it — loses
   * its link under the sync workload: it stops acknowledging (its ZooKeeper connection is in doubt)
   * before its standby leases the slot, the standby serves, and when the link is back the old active
   * finds itself superseded and steps down. No acknowledged operation is lost or applied twice, no
   * error reaches the application.
   */
  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void aPartitionedActiveStopsAcknowledgingBeforeItsSuccessorStarts() throws Exception {
    assumeTrue(NetHosts.available(), "needs root and ip netns (network namespaces) to cut a host off");
    try (NetHosts hosts = new NetHosts(4);
         ProcessCluster cluster = new ProcessCluster(TestData.newDir("partition"), "partition", 2, Map.of(), hosts);
         IndexFsClient client = TestData.client(cluster.zk.connectString(), "partition")) {
      try (Workload work = new Workload(client)) {
        work.awaitMore(100);
        ProcessCluster.Slot slot = cluster.slots.get(0);
        int old = slot.active();
        assertTrue(old >= 0, "slot 0 has an active process");
        LocalDateTime cutAt = LocalDateTime.now();
        long cut = System.nanoTime();
        hosts.cut(ProcessCluster.host(0, old));
        slot.servers[1 - old].awaitServing(120_000);
        double seconds = (System.nanoTime() - cut) / 1e9;
        hosts.heal(ProcessCluster.host(0, old));
        slot.servers[old].awaitStandby(120_000);
        LocalDateTime stopped = firstLine(cluster.log(0, old), "Slot partition/0 stops serving", cutAt);
        LocalDateTime leased = firstLine(cluster.log(0, 1 - old), "leased by", cutAt);
        assertTrue(stopped.isBefore(leased), "the partitioned active stopped serving at " + stopped
            + ", not before its successor leased the slot at " + leased);
        work.awaitMore(100);
        work.close();
        assertExactlyTheAcknowledged(work, client);
        System.out.printf("Partition: slot 0's active cut off; it stopped acknowledging %d ms before its standby"
            + " leased the slot, which served %.1f s after the cut; healed, the old one stepped down;"
            + " %d acknowledged operations, 0 errors, 0 lost, 0 duplicated%n",
            java.time.Duration.between(stopped, leased).toMillis(), seconds, work.acked.size());
      }
    }
  }
}
