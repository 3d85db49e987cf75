package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.giga.GigaIndex;
import org.indexfs.common.schema.NameHash;
import org.indexfs.proto.Code;
import org.indexfs.proto.FileStatus;
import org.indexfs.server.FaultPoints;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A file renamed into a directory on another slot while its own directory crosses the split
 * threshold (what the chaos round caught: a rename acknowledged, and its source back in the
 * namespace). The rename's last phase removes the entry from the source's slot; had a GIGA+ split
 * moved it to another partition between the phases, it would survive there. The split waits until
 * the rename settled, then goes ahead.
 */
class RenameDuringSplitTest {
  @TempDir
  static Path workDir;
  static LocalCluster cluster;
  static IndexFsClient admin;
  static int counter;

  @BeforeAll
  static void start() throws IOException {
    cluster = LocalCluster.builder(workDir).clusterName("renamesplit").servers(2)
        .set(IndexFsConfig.SPLIT_THRESHOLD.name(), "16")
        .set(IndexFsConfig.HOME_SYNC_INTERVAL_MS.name(), "200")
        .set(IndexFsConfig.WAL_SYNC.name(), "false").start();
    admin = Slots.client(cluster, TestData.USER, List.of());
  }

  @AfterAll
  static void stop() {
    admin.close();
    cluster.close();
  }

  @AfterEach
  void noHook() {
    FaultPoints.install(null);
  }

  @ParameterizedTest(name = "the rename held at {0}")
  @ValueSource(strings = {"out.recorded", "out.landed"})
  void anEntryLeavingForAnotherSlotIsNotMovedByASplitMeanwhile(String point) throws Exception {
    int n = counter++;
    FileStatus src = Slots.dirNotOn(admin, "/", "rs-src" + n + "-", -1);
    FileStatus dst = Slots.dirNotOn(admin, "/", "rs-dst" + n + "-", src.getZerothSlot());
    int home = src.getZerothSlot();
    String srcDir = "/" + src.getName();
    String dstDir = "/" + dst.getName();
    // A name the directory's first split moves away (to partition 1, on the other slot).
    String leaving = null;
    for (int i = 0; leaving == null; i++) {
      if (GigaIndex.movesTo(NameHash.of("m" + i), 1)) {
        leaving = "m" + i;
      }
    }
    TestData.createClosed(admin, srcDir + "/" + leaving);

    CountDownLatch reached = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    FaultPoints.install(p -> {
      if (p.equals(point)) {
        reached.countDown();
        try {
          release.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    });
    String from = srcDir + "/" + leaving;
    String to = dstDir + "/" + leaving;
    CompletableFuture<Boolean> renamed = CompletableFuture.supplyAsync(() -> {
      try {
        return admin.rename(from, to);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    try {
      assertTrue(reached.await(20, TimeUnit.SECONDS), "the rename reached " + point);
      // Past the threshold while the entry is between the rename's phases.
      int files = 40;
      for (int i = 0; i < files; i++) {
        TestData.createClosed(admin, srcDir + "/f" + i);
      }
      // (Before the fix, the split triggered by these creates moved the entry with its partition.)
      boolean splitMeanwhile = cluster.server(home).splits().maybeSplit(src.getInodeId())
          || Slots.entriesOn(cluster, 1 - home, src.getInodeId()) > 0;
      release.countDown();
      assertTrue(renamed.get(30, TimeUnit.SECONDS), "the rename answered true");

      // Settled, the rename lets the split go ahead.
      long deadline = System.currentTimeMillis() + 20_000;
      // Started is not finished: until the split's intent is gone, the moved half may sit on both slots.
      while (Slots.entriesOn(cluster, 1 - home, src.getInodeId()) == 0
          || cluster.server(home).splits().inFlight() > 0) {
        assertTrue(System.currentTimeMillis() < deadline, "the directory splits once the rename settled");
        Thread.sleep(50);
      }
      TreeSet<String> expected = new TreeSet<>();
      for (int i = 0; i < files; i++) {
        expected.add("f" + i);
      }
      TreeSet<String> listed = new TreeSet<>();
      admin.listAll(srcDir).forEach(s -> listed.add(s.getName()));
      assertEquals(expected, listed, "the renamed entry is gone from its old directory, every other name stays");
      assertFalse(exists(from), from + " after it was renamed away");
      assertTrue(exists(to), to);
      assertEquals(files, Slots.entriesOn(cluster, 0, src.getInodeId()) + Slots.entriesOn(cluster, 1, src.getInodeId()),
          "stored exactly once across the slots");
      assertFalse(splitMeanwhile, "no split while an entry of the moving partition was being renamed away");
    } finally {
      release.countDown();
    }
  }

  private static boolean exists(String path) throws IOException {
    try {
      admin.getFileStatus(path);
      return true;
    } catch (IndexFsException e) {
      assertEquals(Code.FILE_NOT_FOUND, e.code());
      return false;
    }
  }
}
