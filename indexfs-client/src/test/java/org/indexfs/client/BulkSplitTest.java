package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.indexfs.client.bulk.BulkInsertion;
import org.indexfs.client.bulk.DirectoryShipper;
import org.indexfs.client.bulk.LocalSubtree;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.PublishResult;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A localized directory published past the split threshold splits as usual once the lease ends (GIGA+). */
class BulkSplitTest {
  @TempDir
  static Path workDir;
  static LocalCluster cluster;

  @BeforeAll
  static void start() throws IOException {
    cluster = LocalCluster.builder(workDir).clusterName("bulksplit").servers(2)
        .set(IndexFsConfig.SPLIT_THRESHOLD.name(), "50").start();
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  @Test
  void aDirectoryIngestedPastTheThresholdSplitsAndListsEveryNameOnce() throws Exception {
    try (IndexFsClient holder = BulkPublishTest.client(cluster, TestData.USER, "splitter");
        IndexFsClient reader = BulkPublishTest.client(cluster, TestData.USER, "reader")) {
      BulkInsertion bulk = new BulkInsertion(holder, new DirectoryShipper(cluster.dataUri()), "buffer",
          workDir.resolve("scratch"), 100_000, 1L << 30);
      LocalSubtree t = bulk.localize("/big", 0777, false);
      int files = 500;
      for (int i = 0; i < files; i++) {
        t.complete(t.create("/big/f" + i, 0644, false, 1, 1 << 20).status().getInodeId(), 0, new byte[0], null);
      }
      PublishResult r = bulk.publish("/big", true);
      assertEquals(files, r.getIngested());
      FileStatus dir = reader.getFileStatus("/big");
      int home = dir.getZerothSlot();
      long deadline = System.currentTimeMillis() + 30_000;
      while (Slots.entriesOn(cluster, 1 - home, dir.getInodeId()) == 0) {
        assertTrue(System.currentTimeMillis() < deadline, "the published directory splits");
        Thread.sleep(50);
      }
      Set<String> names = new HashSet<>();
      List<FileStatus> listed = reader.listAll("/big");
      listed.forEach(s -> names.add(s.getName()));
      assertEquals(files, listed.size(), "each name listed once");
      assertEquals(files, names.size());
      for (int i = 0; i < files; i += 37) {
        assertEquals("f" + i, reader.getFileStatus("/big/f" + i).getName());
      }
      // A split copies the moving entries to the child before the source drops them: the slots hold
      // every entry exactly once when the split in flight has finished.
      while (Slots.entriesOn(cluster, 0, dir.getInodeId()) + Slots.entriesOn(cluster, 1, dir.getInodeId()) != files) {
        assertTrue(System.currentTimeMillis() < deadline, "the split finishes with every entry on one slot");
        Thread.sleep(50);
      }
      // A directory split across slots is localized as any other (BulkSplitPublishTest publishes into one).
      assertTrue(reader.localize("/big", false, 10).getLeaseMs() > 0);
      holder.waitForLocalized(0);
      IndexFsException refused = assertThrows(IndexFsException.class, () -> holder.mkdirs("/big/late", 0755));
      assertEquals(Code.SUBTREE_LOCALIZED, refused.code(), refused.getMessage());
    }
  }
}
