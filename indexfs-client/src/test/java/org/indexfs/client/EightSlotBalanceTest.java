package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.proto.FileStatus;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scale-out issue's balance check: 200,000 files created in one directory by 8 threads on an
 * 8-slot cluster with the default split threshold (2,000). The directory splits while it fills;
 * afterwards the listing streams every name exactly once in HDFS order (the eight partitions'
 * sorted pages merged), every name resolves, and each slot holds its share of the directory within
 * ±25% of the mean.
 */
class EightSlotBalanceTest {
  static final int SLOTS = 8;
  static final int FILES = 200_000;
  static final int THREADS = 8;
  @TempDir
  static Path workDir;
  static LocalCluster cluster;

  @BeforeAll
  static void start() throws IOException {
    cluster = LocalCluster.builder(workDir).clusterName("eight").servers(SLOTS)
        .set(IndexFsConfig.WAL_SYNC.name(), "false")
        .set(IndexFsConfig.AUDIT_ENABLED.name(), "false").start();
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  interface PerFile {
    void run(IndexFsClient client, int i) throws IOException;
  }

  static void inParallel(PerFile work) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int first = t;
      done.add(pool.submit(() -> {
        try (IndexFsClient c = Slots.client(cluster, TestData.USER, List.of())) {
          for (int i = first; i < FILES; i += THREADS) {
            work.run(c, i);
          }
        }
        return null;
      }));
    }
    for (Future<?> f : done) {
      f.get();
    }
    pool.shutdown();
  }

  @Test
  void twoHundredThousandFilesInOneDirectorySpreadEvenlyOverEightSlots() throws Exception {
    try (IndexFsClient admin = Slots.client(cluster, TestData.USER, List.of())) {
      admin.mkdirs("/shared", 0755);
      long dirId = admin.getFileStatus("/shared").getInodeId();
      long start = System.nanoTime();
      inParallel((c, i) -> TestData.createClosed(c, "/shared/f" + i));
      double createSeconds = (System.nanoTime() - start) / 1e9;

      // The listing streams: the first names arrive after one page per partition, and the whole
      // directory comes in pages of the server's size, merged from the eight slots in HDFS order.
      int[] pages = {0};
      DirectoryListing listing = admin.list("/shared", () -> pages[0]++);
      FileStatus first = listing.next();
      assertTrue(pages[0] <= SLOTS, "the first name after at most one page per partition, not " + pages[0]);
      List<FileStatus> listed = new ArrayList<>(List.of(first));
      while (listing.hasNext()) {
        listed.add(listing.next());
      }
      Set<String> names = new HashSet<>();
      listed.forEach(st -> names.add(st.getName()));
      assertEquals(FILES, listed.size(), "the listing returns each entry once");
      assertEquals(FILES, names.size(), "200,000 distinct names");
      List<String> hdfsOrder = new ArrayList<>(names);
      hdfsOrder.sort(SortedListingTest.HDFS_ORDER);
      assertEquals(hdfsOrder, listed.stream().map(FileStatus::getName).toList(), "in HDFS order");
      assertTrue(pages[0] <= FILES / IndexFsConfig.LIST_PAGE_SIZE.defaultValue() + 2 * SLOTS,
          "pages of the server's size, one partition at a time: " + pages[0]);
      inParallel((c, i) -> assertEquals("f" + i, c.getFileStatus("/shared/f" + i).getName()));

      long[] perSlot = new long[SLOTS];
      long total = 0;
      for (int s = 0; s < SLOTS; s++) {
        perSlot[s] = Slots.entriesOn(cluster, s, dirId);
        total += perSlot[s];
      }
      assertEquals(FILES, total, "stored exactly once");
      double mean = total / (double) SLOTS;
      long splits = 0;
      for (int s = 0; s < SLOTS; s++) {
        splits += cluster.server(s).metrics().getSplits();
        assertTrue(Math.abs(perSlot[s] - mean) <= 0.25 * mean,
            "slot " + s + " holds " + perSlot[s] + " of the directory's entries; mean " + mean);
      }
      long max = 0;
      for (long n : perSlot) {
        max = Math.max(max, n);
      }
      System.out.printf("200,000 files, 8 slots: per-slot entries %s, max/mean %.3f, %d splits, creates took %.1f s,"
          + " listed in %d pages%n", java.util.Arrays.toString(perSlot), max / mean, splits, createSeconds, pages[0]);
    }
  }
}
