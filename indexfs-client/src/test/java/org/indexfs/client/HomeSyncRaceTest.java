package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.FileStatus;
import org.indexfs.server.FaultPoints;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A directory removed while the sync of its mkdir to its home is on its way (what fsck found after
 * RoutingCodesNeverLeakTest: a partition record on the home that no entry names). The rmdir records
 * an intent of the same value as the mkdir's; the mkdir's drive, which sent "the entry exists",
 * must not take that intent as its own and drop it.
 */
class HomeSyncRaceTest {
  @TempDir
  static Path workDir;
  static LocalCluster cluster;
  static IndexFsClient admin;

  @BeforeAll
  static void start() throws IOException {
    cluster = LocalCluster.builder(workDir).clusterName("homesyncrace").servers(2)
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

  @Test
  void aDirectoryRemovedWhileItsMkdirIsSyncedLeavesNoPartitionAtItsHome() throws Exception {
    admin.mkdirs("/hs", 0777);
    for (int i = 0; i < 100; i++) {
      String path = "/hs/d" + i;
      CountDownLatch reached = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      FaultPoints.install(p -> {
        if (p.equals("home.sync.sent") && reached.getCount() > 0) {
          reached.countDown();
          try {
            release.await(60, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
      });
      CompletableFuture<Boolean> mkdir = async(() -> admin.mkdirs(path, 0777));
      // Homed on the entry's own slot, the mkdir syncs nothing: try another name.
      while (!mkdir.isDone() && !reached.await(50, TimeUnit.MILLISECONDS)) {
        // waiting for one or the other
      }
      if (reached.getCount() > 0) {
        FaultPoints.install(null);
        continue;
      }
      FileStatus dir = admin.getFileStatus(path);
      CompletableFuture<Boolean> rmdir = async(() -> admin.delete(path, false));
      long until = System.currentTimeMillis() + 20_000;
      while (exists(path)) {
        assertTrue(System.currentTimeMillis() < until, "the rmdir removed the entry");
        Thread.sleep(20);
      }
      release.countDown();
      assertTrue(mkdir.get(30, TimeUnit.SECONDS));
      assertTrue(rmdir.get(30, TimeUnit.SECONDS));
      int home = dir.getZerothSlot();
      until = System.currentTimeMillis() + 10_000;
      while (cluster.server(home).namespace().partition(dir.getInodeId()) != null) {
        assertTrue(System.currentTimeMillis() < until,
            "slot " + home + " still holds a partition record of the removed " + path);
        Thread.sleep(50);
      }
      return;
    }
    throw new AssertionError("no directory was homed away from its entry's slot in 100 tries");
  }

  interface Call {
    boolean run() throws IOException;
  }

  private static CompletableFuture<Boolean> async(Call call) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        return call.run();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  private static boolean exists(String path) throws IOException {
    try {
      admin.getFileStatus(path);
      return true;
    } catch (IndexFsException e) {
      if (e.code() != Code.FILE_NOT_FOUND) {
        throw e;
      }
      return false;
    }
  }
}
