package org.indexfs.hadoop.parity;

import java.util.Map;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options.Rename;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 31, item 7: the NameNode's limits on what is created, compared call by call with a
 * MiniDFSCluster on one slot and on four — a path of at most 8,000 characters and 1,000 components
 * for create, mkdirs, and rename's destination (a plain IOException from the NameNode, "Pathname too
 * long"), and components of at most 255 bytes (PathComponentTooLongException). Before the fix a
 * 10,000-deep mkdirs was accepted. HDFS lets a rename make a tree deeper than 1,000 levels (it
 * checks only the destination's path), and so does IndexFS; such a tree is summarized and deleted.
 */
class PathLimitsParityTest {
  private static SideBySideClusters clusters;

  @BeforeAll
  static void start() throws Exception {
    clusters = new SideBySideClusters("pathlimits", Map.of(), Map.of(), 1, 4);
  }

  @AfterAll
  static void stop() {
    if (clusters != null) {
      clusters.close();
    }
  }

  /** {@code base} and {@code levels} more components named "d". */
  private static Path deep(Path base, int levels) {
    return new Path(base + "/d".repeat(levels));
  }

  private static String counts(ContentSummary s) {
    return "directories=" + s.getDirectoryCount() + " files=" + s.getFileCount() + " length=" + s.getLength();
  }

  /** {@code base} followed by components of up to 250 characters, {@code length} characters in all. */
  private static Path ofLength(Path base, int length) {
    StringBuilder p = new StringBuilder(base.toString());
    for (int i = 0; p.length() < length; i++) {
      int left = length - p.length() - 1;
      p.append('/').append(String.valueOf((char) ('a' + i % 26)).repeat(Math.min(250, Math.max(1, left))));
    }
    return new Path(p.toString());
  }

  @Test
  void pathLengthAndDepthLimits() throws Exception {
    clusters.compare("pathLimits", (side, base, t) -> {
      FileSystem fs = side.fs();
      FileContext fc = FileContext.getFileContext(side.uri(), side.conf());
      int baseDepth = base.depth();
      t.note("base depth " + baseDepth);
      t.step("mkdirs 10,000 levels", () -> fs.mkdirs(deep(base, 10_000 - baseDepth)));
      t.step("nothing of it was made", () -> fs.exists(new Path(base, "d")));
      t.step("mkdirs 1,000 levels", () -> fs.mkdirs(deep(base, 1000 - baseDepth)));
      t.step("mkdirs 1,001 levels", () -> fs.mkdirs(deep(base, 1001 - baseDepth)));
      t.step("create at 1,001 levels", () -> {
        fs.create(new Path(deep(base, 1000 - baseDepth), "f")).close();
        return "created";
      });
      t.step("create at 1,000 levels", () -> {
        fs.create(new Path(deep(base, 999 - baseDepth), "f")).close();
        return "created";
      });
      t.step("mkdirs of 8,000 characters", () -> fs.mkdirs(ofLength(new Path(base, "long"), 8000)));
      t.step("mkdirs of 8,001 characters", () -> fs.mkdirs(ofLength(new Path(base, "long"), 8001)));
      t.step("a component of 255 bytes", () -> fs.mkdirs(new Path(base, "c".repeat(255))));
      t.step("mkdirs with a component of 256 bytes", () -> fs.mkdirs(new Path(base, "x".repeat(256) + "/y")));
      t.step("create with a component of 256 bytes", () -> {
        fs.create(new Path(base, "x".repeat(256))).close();
        return "created";
      });
      fs.mkdirs(new Path(base, "src"));
      t.step("rename onto a component of 256 bytes", () -> fs.rename(new Path(base, "src"), new Path(base, "x".repeat(256))));
      t.step("rename onto 1,001 levels", () -> fs.rename(new Path(base, "src"), deep(base, 1001 - baseDepth)));
      t.call("FileContext rename onto 1,001 levels",
          () -> fc.rename(new Path(base, "src"), deep(base, 1001 - baseDepth), Rename.NONE));
      t.step("rename onto 8,001 characters", () -> fs.rename(new Path(base, "src"), ofLength(base, 8001)));
      // HDFS checks only the destination's own path: a tree may grow deeper than 1,000 levels.
      fs.mkdirs(deep(new Path(base, "other"), 500));
      t.step("rename a 500-level tree to 1,000 levels", () -> fs.rename(new Path(base, "other"),
          new Path(deep(base, 999 - baseDepth), "other")));
      t.step("summary of the tree", () -> counts(fs.getContentSummary(base)));
      t.step("delete it", () -> fs.delete(new Path(base, "d"), true));
      t.step("summary after", () -> counts(fs.getContentSummary(base)));
    });
  }
}
