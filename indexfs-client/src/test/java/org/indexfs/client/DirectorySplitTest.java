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
 * GIGA+ splitting (IndexFS §II-C): one directory filled from several threads while it splits
 * spreads over every slot, and every name stays findable and listed exactly once.
 */
class DirectorySplitTest {
  static final int SLOTS = 4;
  @TempDir
  static Path workDir;
  static LocalCluster cluster;
  static IndexFsClient admin;

  @BeforeAll
  static void start() throws IOException {
    cluster = LocalCluster.builder(workDir).clusterName("split").servers(SLOTS)
        .set(IndexFsConfig.SPLIT_THRESHOLD.name(), "100")
        .set(IndexFsConfig.WAL_SYNC.name(), "false").start();
    admin = Slots.client(cluster, TestData.USER, List.of());
  }

  @AfterAll
  static void stop() {
    admin.close();
    cluster.close();
  }

  static long entriesOn(int slot, long dirId) {
    return Slots.entriesOn(cluster, slot, dirId);
  }

  @Test
  void aBigDirectorySplitsOverEverySlotAndKeepsEveryName() throws Exception {
    int files = 4_000;
    int threads = 4;
    admin.mkdirs("/big", 0755);
    long dirId = admin.getFileStatus("/big").getInodeId();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int first = t;
      done.add(pool.submit(() -> {
        try (IndexFsClient c = Slots.client(cluster, TestData.USER, List.of())) {
          for (int i = first; i < files; i += threads) {
            TestData.createClosed(c, "/big/f" + i);
          }
        }
        return null;
      }));
    }
    for (Future<?> f : done) {
      f.get();
    }
    pool.shutdown();
    long deadline = System.currentTimeMillis() + 30_000;
    while (true) {
      long spanned = 0;
      for (int s = 0; s < SLOTS; s++) {
        spanned += entriesOn(s, dirId) > 0 ? 1 : 0;
      }
      if (spanned == SLOTS) {
        break;
      }
      assertTrue(System.currentTimeMillis() < deadline, "the directory spans every slot");
      Thread.sleep(100);
    }
    List<FileStatus> listed = admin.listAll("/big");
    Set<String> names = new HashSet<>();
    listed.forEach(st -> names.add(st.getName()));
    assertEquals(files, listed.size(), "listed once each");
    assertEquals(files, names.size());
    try (IndexFsClient fresh = Slots.client(cluster, TestData.USER, List.of())) {
      for (int i = 0; i < files; i++) {
        assertEquals("f" + i, fresh.getFileStatus("/big/f" + i).getName());
      }
    }
    long total = 0;
    for (int s = 0; s < SLOTS; s++) {
      total += entriesOn(s, dirId);
    }
    assertEquals(files, total, "no entry lost or duplicated by migration");
    assertEquals(files, admin.contentSummary("/big").getFileCount());
    assertTrue(admin.delete("/big/f7", false));
    assertTrue(admin.rename("/big/f8", "/big/renamed8"));
    assertEquals(files - 1, admin.listAll("/big").size());
  }

  @Test
  void aFileOpenForWritingMovesWithItsLeaseAndItsWriterCarriesOn() throws Exception {
    admin.mkdirs("/withopen", 0755);
    long dirId = admin.getFileStatus("/withopen").getInodeId();
    // A name in the upper half of the hash space: the first split of partition 0 would move it.
    String open = "open";
    for (int i = 0; org.indexfs.common.schema.NameHash.of(open) >= 0; i++) {
      open = "open" + i;
    }
    String openPath = "/withopen/" + open;
    long openId = admin.create(openPath, 0644, false, 1, 1 << 20, false).getInodeId();
    for (int i = 0; i < 1_000; i++) {
      TestData.createClosed(admin, "/withopen/f" + i);
    }
    long deadline = System.currentTimeMillis() + 20_000;
    while (entriesOn(admin.getFileStatus("/withopen").getZerothSlot(), dirId) > 600) {
      assertTrue(System.currentTimeMillis() < deadline, "the directory splits although a file in it is open");
      Thread.sleep(50);
    }
    admin.renewLease();
    admin.flush(openPath, openId, 2, "ab".getBytes(java.nio.charset.StandardCharsets.UTF_8), null, false);
    admin.complete(openPath, openId, 3, "abc".getBytes(java.nio.charset.StandardCharsets.UTF_8), null);
    FileStatus closed = admin.getFileStatus(openPath);
    assertEquals(3, closed.getLength());
    assertTrue(!closed.getUnderConstruction());
    for (int i = 1_000; i < 1_500; i++) {
      TestData.createClosed(admin, "/withopen/f" + i);
    }
    long total = 0;
    for (int s = 0; s < SLOTS; s++) {
      total += entriesOn(s, dirId);
    }
    assertEquals(1_501, total, "every entry stored once");
    assertEquals(1_501, admin.listAll("/withopen").size());
    assertEquals(3, admin.getFileStatus(openPath).getLength());
  }

  @Test
  void ownersKeepTheirNamesOnASlotThatNumbersUsersDifferently() throws Exception {
    // Each slot numbers the users it meets in its own order: make every other slot's numbering
    // differ from the home's, so a value shipped with the home's ids would name someone else.
    for (int s = 0; s < SLOTS; s++) {
      for (int i = 0; i <= s; i++) {
        cluster.server(s).namespace().principals().idOf("skew-" + s + "-" + i);
      }
    }
    admin.mkdirs("/owners", 0777);
    long dirId = admin.getFileStatus("/owners").getInodeId();
    List<String> users = List.of(TestData.USER, "carol", "dave");
    int files = 600;
    for (int u = 0; u < users.size(); u++) {
      try (IndexFsClient c = Slots.client(cluster, users.get(u), List.of("team-" + users.get(u)))) {
        for (int i = u; i < files; i += users.size()) {
          TestData.createClosed(c, "/owners/f" + i);
        }
      }
    }
    long deadline = System.currentTimeMillis() + 30_000;
    int spanned;
    do {
      spanned = 0;
      for (int s = 0; s < SLOTS; s++) {
        spanned += entriesOn(s, dirId) > 0 ? 1 : 0;
      }
      assertTrue(System.currentTimeMillis() < deadline, "the directory splits to other slots");
      Thread.sleep(50);
    } while (spanned < 2);
    List<FileStatus> listed = admin.listAll("/owners");
    assertEquals(files, listed.size());
    for (FileStatus st : listed) {
      int i = Integer.parseInt(st.getName().substring(1));
      assertEquals(users.get(i % users.size()), st.getOwner(), st.getName() + " (listing)");
      assertEquals(users.get(i % users.size()), admin.getFileStatus("/owners/" + st.getName()).getOwner(),
          st.getName() + " (lookup)");
    }
  }
}
