package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.FileStatus;
import org.indexfs.server.local.LocalCluster;
import org.indexfs.server.FaultPoints;
import org.indexfs.server.rename.RenameIntents;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rename from a directory on one slot into a directory on another, with the source's or the
 * destination's server stopped between the phases and restarted: afterwards the entry is in
 * exactly one place, and no record of the rename is left.
 */
class CrossSlotRenameFaultTest {
  @TempDir
  static Path workDir;
  static LocalCluster cluster;
  static IndexFsClient admin;
  static int counter;

  @BeforeAll
  static void start() throws IOException {
    cluster = LocalCluster.builder(workDir).clusterName("faults").servers(3)
        .set(IndexFsConfig.HOME_SYNC_INTERVAL_MS.name(), "200").start();
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

  /** /srcN and /dstN homed on different slots, with a file /srcN/f. */
  record Setup(String src, String dst, int srcSlot, int dstSlot) {}

  static Setup setup() throws IOException {
    int n = counter++;
    FileStatus s = Slots.dirNotOn(admin, "/", "src" + n + "-", -1);
    FileStatus d = Slots.dirNotOn(admin, "/", "dst" + n + "-", s.getZerothSlot());
    admin.create("/" + s.getName() + "/f", 0644, false, 1, 1 << 20, false);
    admin.complete("/" + s.getName() + "/f", admin.getFileStatus("/" + s.getName() + "/f").getInodeId(), 0,
        new byte[0], null);
    return new Setup("/" + s.getName() + "/f", "/" + d.getName() + "/f", s.getZerothSlot(), d.getZerothSlot());
  }

  static void crashAt(String point) {
    FaultPoints.install(p -> {
      if (p.equals(point)) {
        throw new IllegalStateException("injected stop at " + point);
      }
    });
  }

  static boolean exists(String path) throws IOException {
    try {
      admin.getFileStatus(path);
      return true;
    } catch (IndexFsException e) {
      assertEquals(Code.FILE_NOT_FOUND, e.code());
      return false;
    }
  }

  /** Waits until slot {@code slot} holds no unsettled rename, then checks the entry is in exactly {@code where}. */
  static void settlesTo(Setup s, boolean atDestination) throws Exception {
    long deadline = System.currentTimeMillis() + 20_000;
    while (!new RenameIntents(cluster.server(s.srcSlot).namespace()).outgoing().isEmpty()) {
      assertTrue(System.currentTimeMillis() < deadline, "the rename is settled after the restart");
      Thread.sleep(50);
    }
    assertEquals(!atDestination, exists(s.src), "source " + s.src);
    assertEquals(atDestination, exists(s.dst), "destination " + s.dst);
  }

  @Test
  void aRenameAcrossSlotsMovesTheEntry() throws Exception {
    Setup s = setup();
    assertTrue(admin.rename(s.src, s.dst));
    settlesTo(s, true);
  }

  @Test
  void sourceStoppedAfterItsRecordRollsBack() throws Exception {
    Setup s = setup();
    crashAt("out.recorded");
    assertThrows(IOException.class, () -> admin.rename(s.src, s.dst));
    FaultPoints.install(null);
    cluster.restartServer(s.srcSlot);
    settlesTo(s, false);
  }

  @Test
  void sourceStoppedAfterTheDestinationLandedCompletes() throws Exception {
    Setup s = setup();
    crashAt("out.landed");
    assertThrows(IOException.class, () -> admin.rename(s.src, s.dst));
    FaultPoints.install(null);
    cluster.restartServer(s.srcSlot);
    settlesTo(s, true);
  }

  @Test
  void destinationStoppedBeforeAnsweringIsSettledByAsking() throws Exception {
    Setup s = setup();
    crashAt("in.landed");
    assertTrue(admin.rename(s.src, s.dst), "the source asked the destination and learned it landed");
    FaultPoints.install(null);
    cluster.restartServer(s.dstSlot);
    settlesTo(s, true);
  }

  @Test
  void aRenameWhoseDestinationIsDownWaitsForItAndLandsOnce() throws Exception {
    Setup s = setup();
    while (s.dstSlot == 0) {
      s = setup(); // slot 0 holds the root: with it down nothing resolves
    }
    Setup chosen = s;
    cluster.stopServer(chosen.dstSlot);
    Thread back = new Thread(() -> {
      try {
        Thread.sleep(2_000);
        assertEquals(1, new RenameIntents(cluster.server(chosen.srcSlot).namespace()).outgoing().size(),
            "the source keeps its record while the outcome is unknown");
        cluster.restartServer(chosen.dstSlot);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    back.start();
    assertTrue(admin.rename(chosen.src, chosen.dst), "answered once the destination is back, never as an error");
    back.join();
    settlesTo(chosen, true);
  }

  @Test
  void aDirectoryCannotMoveIntoItsOwnSubtreeAcrossSlots() throws Exception {
    FileStatus a = Slots.dirNotOn(admin, "/", "cyc", -1);
    String aPath = "/" + a.getName();
    FileStatus b = Slots.dirNotOn(admin, aPath, "b", a.getZerothSlot());
    String bPath = aPath + "/" + b.getName();
    IndexFsException e = assertThrows(IndexFsException.class, () -> admin.renameExact(aPath, bPath + "/x", false));
    assertEquals(Code.RENAME_REFUSED, e.code());
    assertTrue(exists(aPath));
  }
}
