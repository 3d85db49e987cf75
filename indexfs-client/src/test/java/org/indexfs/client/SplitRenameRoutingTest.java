package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.FileType;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Renames whose destination lies in a split directory on four slots (the paths that let internal
 * redirects out, issue 16): each answers what it answers on one slot.
 */
class SplitRenameRoutingTest {
  static LocalCluster cluster;
  static IndexFsClient admin;

  @BeforeAll
  static void start() throws IOException {
    cluster = LocalCluster.builder(TestData.newDir("splitrename")).clusterName("splitrename").servers(4)
        .set(IndexFsConfig.SPLIT_THRESHOLD.name(), "2")
        .set(IndexFsConfig.WAL_SYNC.name(), "false")
        .set(IndexFsConfig.AUDIT_ENABLED.name(), "false").start();
    admin = Slots.client(cluster, TestData.USER, List.of());
  }

  @AfterAll
  static void stop() {
    admin.close();
    cluster.close();
  }

  /** A directory with enough entries to be split over every slot. */
  static void fill(String dir, int n) throws Exception {
    admin.mkdirs(dir, 0755);
    for (int i = 0; i < n; i++) {
      admin.mkdirs(dir + "/sub" + i, 0755);
      TestData.createClosed(admin, dir + "/file" + i);
    }
    Thread.sleep(300);
  }

  @Test
  void aDirectoryRenamedOntoItselfInASplitParentAnswersFalse() throws Exception {
    fill("/self", 6);
    for (int i = 0; i < 6; i++) {
      assertFalse(admin.rename("/self/sub" + i, "/self/sub" + i), "sub" + i);
      assertTrue(admin.getFileStatus("/self/sub" + i).getType() == org.indexfs.proto.FileType.DIRECTORY);
    }
  }

  @Test
  void aFileRenamedIntoAnExistingDirectoryOfASplitDirectoryLandsThere() throws Exception {
    fill("/into", 6);
    for (int i = 0; i < 6; i++) {
      assertTrue(admin.rename("/into/file" + i, "/into/sub" + i), "file" + i);
      assertEquals("file" + i, admin.getFileStatus("/into/sub" + i + "/file" + i).getName());
    }
  }

  @Test
  void twoClientsRenamingOneFileAtOnceMoveItOnce() throws Exception {
    fill("/dup", 4);
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
    try (IndexFsClient other = Slots.client(cluster, TestData.USER, List.of())) {
      for (int round = 0; round < 20; round++) {
        String src = "/dup/r" + round;
        TestData.createClosed(admin, src);
        long id = admin.getFileStatus(src).getInodeId();
        String a = "/dup/sub" + (round % 4) + "/a" + round;
        String b = "/dup/sub" + ((round + 1) % 4) + "/b" + round;
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.Future<Boolean> first = pool.submit(() -> {
          go.await();
          return admin.rename(src, a);
        });
        java.util.concurrent.Future<Boolean> second = pool.submit(() -> {
          go.await();
          return other.rename(src, b);
        });
        go.countDown();
        boolean movedA = first.get();
        boolean movedB = second.get();
        assertTrue(movedA ^ movedB, "exactly one of the two renames moves it (round " + round + ")");
        assertEquals(id, admin.getFileStatus(movedA ? a : b).getInodeId());
        assertFalse(exists(movedA ? b : a), "never at both destinations (round " + round + ")");
      }
    } finally {
      pool.shutdown();
    }
  }

  static boolean exists(String path) throws IOException {
    try {
      admin.getFileStatus(path);
      return true;
    } catch (IndexFsException e) {
      if (e.code() == Code.FILE_NOT_FOUND) {
        return false;
      }
      throw e;
    }
  }

  @Test
  void exactRenamesBetweenSplitDirectoriesKeepHdfsAnswers() throws Exception {
    fill("/exact", 6);
    for (int i = 0; i < 5; i++) {
      admin.renameExact("/exact/sub" + i, "/exact/moved" + i, false);
      IndexFsException e = org.junit.jupiter.api.Assertions.assertThrows(IndexFsException.class,
          () -> admin.renameExact("/exact/file5", "/exact/moved" + 0, false));
      assertEquals(Code.RENAME_REFUSED, e.code(), e.getMessage());
    }
    assertEquals(6 + 6, admin.listAll("/exact").size());
  }

  /**
   * An exact rename with OVERWRITE between a file and a directory is refused in HDFS's words wherever
   * the two entries and the directory's home are, and leaves both as they were (the directory's home,
   * sealed for the attempt, takes entries again).
   */
  @Test
  void aFileOntoADirectoryIsRefusedWhereverTheyLive() throws Exception {
    fill("/kinds", 8);
    for (int i = 0; i < 8; i++) {
      String file = "/kinds/file" + i;
      String dir = "/kinds/sub" + i;
      IndexFsException e = assertThrows(IndexFsException.class, () -> admin.renameExact(file, dir, true));
      assertEquals("Source " + file + " and destination " + dir + " must both be directories", e.getMessage());
      IndexFsException back = assertThrows(IndexFsException.class, () -> admin.renameExact(dir, file, true));
      assertEquals("Source " + dir + " and destination " + file + " must both be directories", back.getMessage());
      assertEquals(FileType.FILE, admin.getFileStatus(file).getType());
      assertEquals(FileType.DIRECTORY, admin.getFileStatus(dir).getType());
      admin.mkdirs(dir + "/again", 0755);
    }
  }
}
