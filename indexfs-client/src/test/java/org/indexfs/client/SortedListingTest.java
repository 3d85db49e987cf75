package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.proto.FileStatus;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Listings in HDFS order (DESIGN §13) on four slots with small pages and early splits: names come
 * sorted by HDFS's own comparator ({@link DFSUtilClient#compareBytes}, signed bytes, so non-ASCII
 * names sort first), every partition's pages are merged, the name index stays in step with the
 * entries through splits, and a listing that runs while the directory splits still lists each
 * name once, in order.
 */
class SortedListingTest {
  static final int SLOTS = 4;
  /** HDFS's order of names. */
  static final Comparator<String> HDFS_ORDER = (a, b) ->
      DFSUtilClient.compareBytes(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  static LocalCluster cluster;
  static IndexFsClient admin;

  @BeforeAll
  static void start() throws IOException {
    cluster = LocalCluster.builder(TestData.newDir("sorted")).clusterName("sorted").servers(SLOTS)
        .set(IndexFsConfig.SPLIT_THRESHOLD.name(), "40")
        .set(IndexFsConfig.LIST_PAGE_SIZE.name(), "7")
        .set(IndexFsConfig.WAL_SYNC.name(), "false")
        .set(IndexFsConfig.AUDIT_ENABLED.name(), "false").start();
    admin = Slots.client(cluster, TestData.USER, List.of());
  }

  @AfterAll
  static void stop() {
    admin.close();
    cluster.close();
  }

  static List<String> names(List<FileStatus> listed) {
    return listed.stream().map(FileStatus::getName).toList();
  }

  static List<String> mixedNames(int n) {
    List<String> out = new ArrayList<>();
    String[] shapes = {"part-%05d", "_tmp%d", "Z%d", "é%d", "日本%d", "a%d", "%d", "~%d"};
    for (int i = 0; i < n; i++) {
      out.add(String.format(shapes[i % shapes.length], i));
    }
    out.add("_SUCCESS");
    return out;
  }

  void awaitSpansEverySlot(long dirId) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 30_000;
    while (true) {
      int spanned = 0;
      for (int s = 0; s < SLOTS; s++) {
        spanned += Slots.entriesOn(cluster, s, dirId) > 0 ? 1 : 0;
      }
      if (spanned == SLOTS) {
        return;
      }
      assertTrue(System.currentTimeMillis() < deadline, "the directory spans every slot");
      Thread.sleep(50);
    }
  }

  @Test
  void aSplitDirectoryListsInHdfsOrderAndItsNameIndexKeepsStepWithItsEntries() throws Exception {
    admin.mkdirs("/mixed", 0755);
    long dirId = admin.getFileStatus("/mixed").getInodeId();
    List<String> created = mixedNames(600);
    for (String name : created) {
      TestData.createClosed(admin, "/mixed/" + name);
    }
    awaitSpansEverySlot(dirId);
    List<String> expected = new ArrayList<>(created);
    expected.sort(HDFS_ORDER);
    try (IndexFsClient fresh = Slots.client(cluster, TestData.USER, List.of())) {
      assertEquals(expected, names(fresh.listAll("/mixed")), "a client that knows no partition yet");
    }
    assertEquals(expected, names(admin.listAll("/mixed")));
    for (int s = 0; s < SLOTS; s++) {
      assertEquals(Slots.entriesOn(cluster, s, dirId), Slots.namesOn(cluster, s, dirId),
          "slot " + s + " indexes exactly the entries it holds");
    }
    assertTrue(admin.delete("/mixed/" + expected.get(3), false));
    assertTrue(admin.rename("/mixed/" + expected.get(5), "/mixed/" + "0-renamed"));
    expected.remove(5);
    expected.remove(3);
    expected.add("0-renamed");
    expected.sort(HDFS_ORDER);
    assertEquals(expected, names(admin.listAll("/mixed")));
  }

  @Test
  void aListingRunningWhileTheDirectorySplitsListsEveryEarlierNameOnceInOrder() throws Exception {
    admin.mkdirs("/growing", 0755);
    Set<String> existing = ConcurrentHashMap.newKeySet();
    for (int i = 0; i < 30; i++) {
      TestData.createClosed(admin, "/growing/g" + i);
      existing.add("g" + i);
    }
    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService pool = Executors.newSingleThreadExecutor();
    Future<?> writer = pool.submit(() -> {
      try (IndexFsClient c = Slots.client(cluster, TestData.USER, List.of())) {
        for (int i = 30; i < 1_500 && !stop.get(); i++) {
          TestData.createClosed(c, "/growing/g" + i);
          existing.add("g" + i);
        }
      }
      return null;
    });
    try (IndexFsClient lister = Slots.client(cluster, TestData.USER, List.of())) {
      int listings = 0;
      while (!writer.isDone() || listings < 3) {
        Set<String> before = Set.copyOf(existing);
        List<String> listed = names(lister.listAll("/growing"));
        for (int i = 1; i < listed.size(); i++) {
          assertTrue(HDFS_ORDER.compare(listed.get(i - 1), listed.get(i)) < 0,
              "strictly increasing: " + listed.get(i - 1) + " then " + listed.get(i));
        }
        assertTrue(listed.containsAll(before), "every name created before the listing began is listed");
        listings++;
      }
    } finally {
      stop.set(true);
      writer.get();
      pool.shutdown();
    }
    List<String> expected = new ArrayList<>(existing);
    expected.sort(HDFS_ORDER);
    assertEquals(expected, names(admin.listAll("/growing")));
  }

  @Test
  void theFirstEntriesArriveAfterOnePagePerPartition() throws Exception {
    admin.mkdirs("/paged", 0755);
    long dirId = admin.getFileStatus("/paged").getInodeId();
    for (int i = 0; i < 400; i++) {
      TestData.createClosed(admin, "/paged/p" + i);
    }
    awaitSpansEverySlot(dirId);
    int[] pages = {0};
    DirectoryListing listing = admin.list("/paged", () -> pages[0]++);
    for (int i = 0; i < 7; i++) {
      listing.next();
    }
    assertTrue(pages[0] <= SLOTS, "at most one page per partition before the first names: " + pages[0]);
    int n = 7;
    while (listing.hasNext()) {
      listing.next();
      n++;
    }
    assertEquals(400, n);
    assertTrue(pages[0] <= 400 / 7 + 2 * SLOTS, "pages of 7 names each, one partition at a time: " + pages[0]);
  }
}
