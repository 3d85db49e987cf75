package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.indexfs.client.bulk.BulkInsertion;
import org.indexfs.client.bulk.DirectoryShipper;
import org.indexfs.client.bulk.LocalSubtree;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.FileType;
import org.indexfs.proto.PublishResult;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A create refused inside a localized subtree leaves the subtree as it was: the entry already
 * pending keeps its bytes, a directory stays a directory, and a name taken on the server is not
 * published over (a localized create writes its entry first and puts back what was there when
 * it is refused).
 */
class LocalCreateRefusalTest {
  @TempDir
  static Path workDir;
  static LocalCluster cluster;

  @BeforeAll
  static void start() throws IOException {
    cluster = LocalCluster.builder(workDir).clusterName("localrefusal").servers(1)
        .set(IndexFsConfig.LOCALIZE_LEASE_MS.name(), "60000").start();
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  @Test
  void aRefusedCreateLeavesWhatWasThere() throws Exception {
    try (IndexFsClient holder = BulkPublishTest.client(cluster, TestData.USER, "holder")) {
      holder.mkdirs("/refusals", 0777);
      TestData.createClosed(holder, "/refusals/on-server");
      BulkInsertion bulk = new BulkInsertion(holder, new DirectoryShipper(cluster.dataUri()), "buffer",
          workDir.resolve("scratch"), 100_000, 1L << 30);
      LocalSubtree t = bulk.localize("/refusals", 0777, false);
      t.complete(t.create("/refusals/f", 0644, false, 1, 1 << 20).status().getInodeId(), 3, "abc".getBytes(), null);
      t.mkdirs("/refusals/d", 0755);

      assertEquals(Code.FILE_ALREADY_EXISTS, assertThrows(IndexFsException.class,
          () -> t.create("/refusals/f", 0644, false, 1, 1 << 20)).code());
      assertEquals(3, t.getFileStatus("/refusals/f").getLength(), "the pending file keeps its entry");
      assertEquals(Code.FILE_ALREADY_EXISTS, assertThrows(IndexFsException.class,
          () -> t.create("/refusals/d", 0644, true, 1, 1 << 20)).code());
      assertEquals(FileType.DIRECTORY, t.getFileStatus("/refusals/d").getType(), "a directory stays one");
      assertEquals(Code.FILE_ALREADY_EXISTS, assertThrows(IndexFsException.class,
          () -> t.create("/refusals/on-server", 0644, false, 1, 1 << 20)).code());

      PublishResult r = t.publish(true);
      assertEquals(0, r.getRejectedCount(), r.toString());
      assertEquals(2, r.getIngested(), "f and d: nothing for the refused names");
      assertEquals(3, holder.getFileStatus("/refusals/f").getLength());
      assertEquals("abc", holder.open("/refusals/f").getInlineData().toStringUtf8());
      assertTrue(holder.getFileStatus("/refusals/d").getType() == FileType.DIRECTORY);
      assertEquals(0, holder.getFileStatus("/refusals/on-server").getLength());
    }
  }
}
