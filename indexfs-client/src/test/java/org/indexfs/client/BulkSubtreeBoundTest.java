package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bound on a localized subtree's directories homed on other slots (1024: each is walked at
 * grant and at the end, and its slot holds a mirror): a subtree at the bound is localized, one past
 * it is refused {@code UNSUPPORTED} and left an ordinary subtree.
 */
class BulkSubtreeBoundTest {
  static final int BOUND = 1024;

  @TempDir
  static Path workDir;
  static LocalCluster cluster;
  static IndexFsClient admin;
  static IndexFsClient other;

  @BeforeAll
  static void start() throws IOException {
    // No split: every directory's entry stays in the one partition the home walks.
    cluster = LocalCluster.builder(workDir).clusterName("bulkbound").servers(4)
        .set(IndexFsConfig.SPLIT_THRESHOLD.name(), "0").start();
    admin = BulkPublishTest.client(cluster, TestData.USER, "admin");
    other = BulkPublishTest.client(cluster, TestData.USER, "other");
    other.waitForLocalized(0);
  }

  @AfterAll
  static void stop() {
    other.close();
    admin.close();
    cluster.close();
  }

  /** Makes directories in {@code root} until {@code wanted} of them are homed off {@code home}; returns the next index. */
  static int dirsElsewhere(String root, int home, int from, int wanted) throws IOException {
    int elsewhere = 0;
    int i = from;
    while (elsewhere < wanted) {
      assertTrue(i < from + 8 * wanted + 100, "placement keeps choosing the root's slot");
      String path = root + "/d" + i++;
      admin.mkdirs(path, 0777);
      if (admin.getFileStatus(path).getZerothSlot() != home) {
        elsewhere++;
      }
    }
    return i;
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void aSubtreePastTheBoundOfDirectoriesElsewhereIsRefusedAndStaysOrdinary() throws Exception {
    admin.mkdirs("/big", 0777);
    int home = admin.getFileStatus("/big").getZerothSlot();
    int next = dirsElsewhere("/big", home, 0, BOUND);
    int k = 0;
    while (admin.getFileStatus("/big/d" + k).getZerothSlot() == home) {
      k++;
    }
    String away = "/big/d" + k; // a subdirectory homed on another slot
    try (IndexFsClient holder = BulkPublishTest.client(cluster, TestData.USER, "holder-bound")) {
      holder.localize("/big", false, 16);
      assertEquals(Code.SUBTREE_LOCALIZED, assertThrows(IndexFsException.class,
          () -> other.mkdirs(away + "/x", 0777)).code(), "held on the slots of its subdirectories");
      holder.releaseLocalization("/big");
      other.mkdirs(away + "/x", 0777);

      dirsElsewhere("/big", home, next, 1);
      IndexFsException refused = assertThrows(IndexFsException.class, () -> holder.localize("/big", false, 16));
      assertEquals(Code.UNSUPPORTED, refused.code(), refused.getMessage());
      assertTrue(refused.getMessage().contains("localize a smaller subtree"), refused.getMessage());
      // Refused, the subtree is an ordinary one: others change it, here and on the other slots.
      other.mkdirs("/big/after", 0777);
      other.mkdirs(away + "/y", 0777);
      // A smaller subtree inside it is localized as usual.
      holder.localize(away, false, 16);
      holder.releaseLocalization(away);
    }
  }
}
