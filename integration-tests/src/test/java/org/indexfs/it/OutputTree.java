package org.indexfs.it;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/** A job's output directory as the next job would see it: every file, by relative path, with its text. */
final class OutputTree {
  private OutputTree() {}

  /** Relative path of every file under {@code dir} (recursively) to its content, sorted by path. */
  static TreeMap<String, String> read(FileSystem fs, Path dir) throws IOException {
    TreeMap<String, String> files = new TreeMap<>();
    String prefix = fs.makeQualified(dir).toUri().getPath() + "/";
    RemoteIterator<LocatedFileStatus> it = fs.listFiles(dir, true);
    while (it.hasNext()) {
      LocatedFileStatus f = it.next();
      String relative = f.getPath().toUri().getPath().substring(prefix.length());
      try (var in = fs.open(f.getPath())) {
        files.put(relative, new String(in.readAllBytes(), StandardCharsets.UTF_8));
      }
    }
    return files;
  }

  /** The lines of every {@code part-*} file directly under {@code dir}. */
  static List<String> partLines(FileSystem fs, Path dir) throws IOException {
    List<String> lines = new ArrayList<>();
    for (FileStatus f : fs.listStatus(dir, p -> p.getName().startsWith("part-"))) {
      try (var in = fs.open(f.getPath())) {
        new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().forEach(lines::add);
      }
    }
    return lines;
  }

  /** What a successful job commit leaves, as on HDFS: a {@code _SUCCESS} marker and no {@code _temporary}. */
  static void assertCommitted(FileSystem fs, Path dir) throws IOException {
    assertTrue(fs.isFile(new Path(dir, "_SUCCESS")), "_SUCCESS written in " + dir);
    assertFalse(fs.exists(new Path(dir, "_temporary")), "no _temporary left in " + dir);
  }
}
