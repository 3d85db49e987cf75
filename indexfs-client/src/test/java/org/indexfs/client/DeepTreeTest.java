package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.indexfs.client.admin.AdminClient;
import org.indexfs.client.admin.FsckCheck;
import org.indexfs.client.admin.FsckResult;
import org.indexfs.client.admin.FsckSource;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.ContentSummary;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.Test;

/**
 * Issue 31, item 7: a tree 10,000 directories deep, made within HDFS's limits (mkdirs of at most
 * 1,000 levels, then renames, which HDFS checks only for the destination's path), over two slots.
 * Before the fix its owner's getContentSummary and {@code delete -r} killed the handler thread with
 * StackOverflowError (no reply, the tree could not be deleted), and each crossing from one slot to
 * the other nested one more peer call, until the handler pools were all waiting on each other.
 * Every walk is now iterative and driven by one slot: summary, quota count, delete, reclaim and
 * fsck all get through it. A 10,000-level mkdirs is refused as HDFS refuses it.
 */
class DeepTreeTest {
  private static final int CHAINS = 10;
  /** Levels below /alice/cN: with the destination of each rename, 1,000 levels, HDFS's limit. */
  private static final int LEVELS = 997;
  /**
   * Every this many levels a single-level mkdirs, which placement may put on the other slot. (Not
   * more often: a client routes a path that crosses slots more than about 16 times with growing
   * back-offs, and its 1 s entry leases may run out meanwhile.)
   */
  private static final int PLACED_EVERY = 100;

  @Test
  void tenThousandLevelsAreSummarizedCheckedAndDeletedByTheirOwner() throws Exception {
    // Few handlers: before the fix every crossing of a walk nested one more call, each holding one.
    try (LocalCluster cluster = LocalCluster.builder(TestData.newDir("deep")).servers(2)
            .set(IndexFsConfig.SERVER_HANDLERS.name(), "4").start();
        IndexFsClient admin = TestData.client(cluster);
        IndexFsClient alice = Slots.client(cluster, "alice", List.of())) {
      admin.mkdirs("/alice", 0755);
      admin.setOwner("/alice", "alice", "");
      // In one call, in her own directory: the NameNode's limit, checked before anything else.
      IndexFsException refused = assertThrows(IndexFsException.class,
          () -> alice.mkdirs("/alice" + "/d".repeat(10_000), 0755));
      assertEquals(Code.REFUSED, refused.code());
      assertEquals("mkdirs: Pathname too long.  Limit 8000 characters, 1000 levels.", refused.getMessage());
      assertTrue(alice.listAll("/alice").isEmpty(), "nothing of it was made");
      int crossings = 0;
      for (int c = 0; c < CHAINS; c++) {
        String path = "/alice/c" + c;
        alice.mkdirs(path, 0755);
        int slot = alice.getFileStatus(path).getZerothSlot();
        for (int level = 0; level < LEVELS; level += PLACED_EVERY) {
          path += "/d";
          alice.mkdirs(path, 0755); // one new directory: its home is chosen by load
          int home = alice.getFileStatus(path).getZerothSlot();
          crossings += home != slot ? 1 : 0;
          slot = home;
          int more = Math.min(PLACED_EVERY, LEVELS - level) - 1;
          path += "/d".repeat(more);
          if (more > 0) {
            alice.mkdirs(path, 0755); // mkdir -p: these stay on their parent's slot
          }
          if (level == 500) {
            TestData.createClosed(alice, path + "/f");
          }
        }
      }
      assertTrue(crossings >= 10, "the tree crosses from slot to slot: " + crossings);
      long t0 = System.nanoTime();
      for (int c = 0; c + 1 < CHAINS; c++) {
        String into = "/alice/c" + (c + 1) + "/d".repeat(LEVELS) + "/c" + c;
        assertTrue(alice.rename("/alice/c" + c, into), "rename of chain " + c);
      }
      System.out.printf("deep tree: %d crossings; renames took %d ms%n", crossings, (System.nanoTime() - t0) / 1_000_000);
      String top = "/alice/c" + (CHAINS - 1);
      long expectedDirs = (long) CHAINS * (LEVELS + 1);

      ContentSummary summary = alice.contentSummary(top);
      assertEquals(expectedDirs, summary.getDirectoryCount());
      assertEquals(CHAINS, summary.getFileCount());

      // A quota above it: counting its usage walks it again, as the superuser.
      admin.setQuota("/alice", 1_000_000, Long.MAX_VALUE);
      assertEquals(expectedDirs + 1, admin.contentSummary("/alice").getDirectoryCount());

      FsckResult before = FsckCheck.run(FsckSource.of(new AdminClient(admin), slot -> Map.of()));
      assertTrue(before.healthy(), "fsck: " + before.problems());
      assertEquals(expectedDirs + 2, before.counts().directories()); // with / and /alice

      assertTrue(alice.delete(top, true), "the owner deletes the tree");
      assertThrows(IndexFsException.class, () -> alice.getFileStatus(top));
      assertEquals(1, admin.contentSummary("/alice").getDirectoryCount());
      // Reclamation runs in the background, over both slots; fsck is exact once it is done.
      long deadline = System.nanoTime() + 120_000_000_000L;
      FsckResult after;
      do {
        Thread.sleep(500);
        after = FsckCheck.run(FsckSource.of(new AdminClient(admin), slot -> Map.of()));
      } while ((!after.healthy() || after.counts().reclaimingEntries() > 0 || after.counts().partitions() > 2)
          && System.nanoTime() < deadline);
      assertTrue(after.healthy(), "fsck: " + after.problems());
      assertEquals(0, after.counts().reclaimingEntries(), "the subtree was reclaimed on both slots");
      assertEquals(2, after.counts().directories());
      assertEquals(2, after.counts().partitions(), "partition records left: those of / and /alice");
      assertTrue(alice.listAll("/alice").isEmpty());
    }
  }
}
