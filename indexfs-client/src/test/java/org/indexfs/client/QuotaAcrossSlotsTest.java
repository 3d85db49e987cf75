package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.ContentSummary;
import org.indexfs.proto.Request;
import org.indexfs.server.local.LocalCluster;
import org.indexfs.server.ns.Namespace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A quota whose subtree spans four slots, under eight concurrent writers (DESIGN §7): each slot
 * admits creates within the share its home granted it, and the shares never add up to more than
 * the quota. The bound on overshoot is zero — the subtree ends exactly full, every create past it
 * refused with HDFS's NSQuotaExceededException words — and the slots' own counters add up to the
 * subtree's real usage. Space quotas likewise.
 */
class QuotaAcrossSlotsTest {
  private static final int SLOTS = 4;
  private static final int WRITERS = 8;
  @TempDir
  static Path workDir;
  static LocalCluster cluster;
  static IndexFsClient admin;

  @BeforeAll
  static void start() throws IOException {
    cluster = LocalCluster.builder(workDir).clusterName("quotas").servers(SLOTS)
        .set(IndexFsConfig.SPLIT_THRESHOLD.name(), "40").set(IndexFsConfig.WAL_SYNC.name(), "false")
        // Small blocks, so each file holds one whole block of quota (HDFS's own quota tests do the same).
        .set(IndexFsConfig.MIN_BLOCK_SIZE.name(), "0").start();
    admin = Slots.client(cluster, TestData.USER, List.of());
  }

  @AfterAll
  static void stop() {
    admin.close();
    cluster.close();
  }

  /** The sum over slots of their counters of {@code dirId}: {entries, space}. */
  static long[] countersOf(long dirId) throws IOException {
    long[] sum = new long[2];
    for (int s = 0; s < SLOTS; s++) {
      Namespace ns = cluster.server(s).namespace();
      for (int k = 0; k < 2; k++) {
        byte[] v = ns.store().get(ns.store().usage(),
            ByteBuffer.allocate(9).putLong(dirId).put((byte) (k == 0 ? 'n' : 'd')).array());
        sum[k] += v == null ? 0 : ByteBuffer.wrap(v).order(ByteOrder.LITTLE_ENDIAN).getLong();
      }
    }
    return sum;
  }

  static long quotaCalls() {
    long n = 0;
    for (int s = 0; s < SLOTS; s++) {
      n += cluster.server(s).metrics().ops().op(Request.OpCase.QUOTA).count();
    }
    return n;
  }

  /** Directories for the writers: one each (placement spreads them over the slots) and one they share. */
  static List<String> prepare(String root) throws IOException {
    admin.mkdirs(root + "/shared", 0777);
    List<String> dirs = new ArrayList<>();
    Set<Integer> homes = new HashSet<>();
    for (int w = 0; w < WRITERS; w++) {
      admin.mkdirs(root + "/w" + w, 0777);
      homes.add(admin.getFileStatus(root + "/w" + w).getZerothSlot());
      dirs.add(root + "/w" + w);
    }
    assertTrue(homes.size() > 1, "the subtree spans slots: " + homes);
    return dirs;
  }

  @Test
  void eightWritersOnFourSlotsFillANamespaceQuotaExactly() throws Exception {
    String root = "/nsq";
    admin.mkdirs(root, 0777);
    List<String> dirs = prepare(root);
    long quota = 2_000;
    admin.setQuota(root, quota, Long.MAX_VALUE);
    long before = quotaCalls();
    AtomicInteger created = new AtomicInteger();
    List<String> refusals = java.util.Collections.synchronizedList(new ArrayList<>());
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    List<Future<?>> done = new ArrayList<>();
    for (int w = 0; w < WRITERS; w++) {
      int me = w;
      done.add(pool.submit(() -> {
        try (IndexFsClient c = Slots.client(cluster, TestData.USER, List.of())) {
          for (int i = 0; ; i++) {
            String dir = i % 2 == 0 ? dirs.get(me) : root + "/shared";
            try {
              TestData.createClosed(c, dir + "/f" + me + "-" + i);
              created.incrementAndGet();
            } catch (IndexFsException e) {
              assertEquals(Code.NS_QUOTA_EXCEEDED, e.code(), e.getMessage());
              refusals.add(e.getMessage());
              // Another writer's refusals prove nothing about ours: stop only when we are refused too.
              return null;
            }
          }
        }
      }));
    }
    for (Future<?> f : done) {
      f.get();
    }
    pool.shutdown();
    ContentSummary s = admin.contentSummary(root);
    long used = s.getDirectoryCount() + s.getFileCount();
    assertEquals(quota, used, "the subtree is exactly full: no create passed the quota, none was refused early");
    assertEquals(quota - (2 + WRITERS), created.get());
    assertEquals(WRITERS, refusals.size());
    for (String m : refusals) {
      assertEquals("The NameSpace quota (directories and files) of directory /nsq is exceeded: quota=2000 file count=2001", m);
    }
    long[] counted = countersOf(admin.getFileStatus(root).getInodeId());
    assertEquals(used, counted[0], "the slots' counters add up to the usage");
    long calls = quotaCalls() - before;
    System.out.println("quota calls between slots for " + created.get() + " creates: " + calls);
    assertEquals(quota, s.getQuota());
    // A delete on one slot frees room for a create on any other.
    assertTrue(admin.delete(dirs.get(0), true));
    TestData.createClosed(admin, root + "/shared/after-delete");
    ContentSummary after = admin.contentSummary(root);
    assertEquals(after.getDirectoryCount() + after.getFileCount(),
        countersOf(admin.getFileStatus(root).getInodeId())[0], "still exact after a recursive delete");
    assertTrue(calls < created.get() / 4, "shares spare most creates a call to the home: " + calls);
  }

  @Test
  void eightWritersOnFourSlotsStayWithinASpaceQuota() throws Exception {
    String root = "/dsq";
    admin.mkdirs(root, 0777);
    List<String> dirs = prepare(root);
    long quota = 300_000;
    admin.setQuota(root, Long.MAX_VALUE, quota);
    AtomicInteger written = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    List<Future<?>> done = new ArrayList<>();
    byte[] content = new byte[1000];
    for (int w = 0; w < WRITERS; w++) {
      int me = w;
      done.add(pool.submit(() -> {
        try (IndexFsClient c = Slots.client(cluster, TestData.USER, List.of())) {
          for (int i = 0; ; i++) {
            String path = (i % 2 == 0 ? dirs.get(me) : root + "/shared") + "/f" + me + "-" + i;
            // Replication 2, block size 1000: each file holds one whole block, 2000 bytes of quota.
            long id = c.create(path, 0644, false, 2, 1000, false).getInodeId();
            try {
              c.complete(path, id, content.length, content, null);
              written.incrementAndGet();
            } catch (IndexFsException e) {
              assertEquals(Code.DS_QUOTA_EXCEEDED, e.code(), e.getMessage());
              return null;
            }
          }
        }
      }));
    }
    for (Future<?> f : done) {
      f.get();
    }
    pool.shutdown();
    ContentSummary s = admin.contentSummary(root);
    assertEquals(quota, s.getSpaceConsumed(), "exactly full");
    assertEquals(quota / 2000, written.get());
    long[] counted = countersOf(admin.getFileStatus(root).getInodeId());
    assertEquals(s.getSpaceConsumed(), counted[1], "the slots' counters add up to the space used");
  }
}
