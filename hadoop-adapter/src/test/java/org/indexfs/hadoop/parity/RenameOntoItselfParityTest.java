package org.indexfs.hadoop.parity;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options.Rename;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageStatistics;
import org.apache.hadoop.security.UserGroupInformation;
import org.indexfs.hadoop.IndexFileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Renames whose destination, once resolved, is the source itself (issue 37), against a
 * MiniDFSCluster on 1 and 4 slots: {@code FileSystem.rename(/top/d, /top)} — "into" the parent names
 * the source, which HDFS answers {@code true} at once — and {@code FileContext.rename(dir, dir,
 * OVERWRITE)} of a directory split over slots, which HDFS refuses as "the same". Before the fix, on
 * four slots the first spun ~30 s between two slots (the destination's walk met the entry the
 * rename itself had frozen, taken for a split, and was sent back to the root) and the second asked
 * the directory's home to seal it for replacement and answered "not empty".
 */
class RenameOntoItselfParityTest {
  private static SideBySideClusters clusters;

  @BeforeAll
  static void start() throws Exception {
    clusters = new SideBySideClusters("ontoitself", Map.of(), Map.of(), 1, 4);
  }

  @AfterAll
  static void stop() {
    if (clusters != null) {
      clusters.close();
    }
  }

  /** A plain user's directory directly under {@code /}, renamed onto its own parent, 20 rounds. */
  @Test
  void directoryRenamedOntoItsParentUnderRootIsTrueAtOnce() throws Exception {
    UserGroupInformation alice = UserGroupInformation.createUserForTesting("alice", new String[] {"alicegroup"});
    clusters.compare("onto-parent", (side, base, t) -> {
      FileSystem admin = side.fs();
      FileSystem fs = side.as(alice);
      for (int round = 0; round < 20; round++) {
        Path top = new Path("/onto-parent-" + round);
        admin.mkdirs(top);
        admin.setOwner(top, "alice", "alicegroup");
        Path d = new Path(top, "d");
        fs.mkdirs(d);
        fs.mkdirs(new Path(d, "child"));
        long rerouted = rerouted(fs);
        t.step("round " + round + ": rename " + d + " onto " + top, () -> fs.rename(d, top));
        // Answered on its first route: no slot sent the call back to the root.
        assertEquals(0, rerouted(fs) - rerouted, "stale re-resolutions during the rename");
        t.step("round " + round + ": source and child survive", () -> fs.exists(new Path(d, "child")));
        t.step("round " + round + ": parent lists", () -> fs.listStatus(top).length);
      }
    });
  }

  /** FileContext's rename of a split directory onto itself: HDFS's FileAlreadyExistsException. */
  @Test
  void splitDirectoryRenamedOntoItselfWithOverwriteIsTheSame() throws Exception {
    clusters.compare("onto-itself", (side, base, t) -> {
      FileSystem fs = side.fs();
      FileContext fc = FileContext.getFileContext(side.uri(), side.conf());
      Path dir = new Path(base, "split");
      fs.mkdirs(dir);
      for (int i = 0; i < 24; i++) {
        // Past four entries the directory splits over the four slots.
        fs.mkdirs(new Path(dir, "e" + i));
      }
      t.call("FileContext.rename(dir, dir, OVERWRITE)", () -> fc.rename(dir, dir, Rename.OVERWRITE));
      t.call("FileContext.rename(dir, dir, NONE)", () -> fc.rename(dir, dir, Rename.NONE));
      t.step("FileSystem.rename(dir, dir)", () -> fs.rename(dir, dir));
      t.step("entries left", () -> fs.listStatus(dir).length);
    });
  }

  /** Re-routings after a stale cache (0 on HDFS, which has no such thing). */
  private static long rerouted(FileSystem fs) {
    if (!(fs instanceof IndexFileSystem)) {
      return 0;
    }
    StorageStatistics stats = fs.getStorageStatistics();
    Long stale = stats.getLong("resolve.stale");
    return stale == null ? 0 : stale;
  }
}
