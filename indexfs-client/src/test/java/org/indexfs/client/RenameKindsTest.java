package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
 * An exact rename with OVERWRITE of a file onto a directory (or back) is refused as HDFS refuses it,
 * wherever the two entries and the directory's home are: on four slots with the parent split, the
 * rename is two-phase (the destination's partition on another slot) and the refusal must still come
 * back to the caller, leaving both entries as they were.
 */
class RenameKindsTest {
  static LocalCluster cluster;
  static IndexFsClient admin;

  @BeforeAll
  static void start() throws IOException {
    cluster = LocalCluster.builder(TestData.newDir("renamekinds")).clusterName("renamekinds").servers(4)
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

  @Test
  void aFileOntoADirectoryIsRefusedWhereverTheDirectoryLives() throws Exception {
    admin.mkdirs("/k", 0755);
    for (int i = 0; i < 8; i++) {
      admin.mkdirs("/k/d" + i, 0755);
      TestData.createClosed(admin, "/k/f" + i);
    }
    Thread.sleep(300); // /k splits over the slots: a file and the directory it is renamed onto may be apart
    for (int i = 0; i < 8; i++) {
      int n = i;
      IndexFsException e = assertThrows(IndexFsException.class, () -> admin.renameExact("/k/f" + n, "/k/d" + n, true),
          "file onto directory d" + n + " homed on slot " + admin.getFileStatus("/k/d" + n).getZerothSlot());
      assertEquals("Source /k/f" + n + " and destination /k/d" + n + " must both be directories", e.getMessage());
      assertEquals(FileType.FILE, admin.getFileStatus("/k/f" + n).getType());
      assertEquals(FileType.DIRECTORY, admin.getFileStatus("/k/d" + n).getType());
      admin.mkdirs("/k/d" + n + "/again", 0755); // its home still takes entries (not left sealed)
    }
  }
}
