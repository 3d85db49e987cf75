package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.indexfs.client.bulk.BulkInsertion;
import org.indexfs.client.bulk.DirectoryShipper;
import org.indexfs.client.bulk.LocalSubtree;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.FileType;
import org.indexfs.proto.PublishResult;
import org.indexfs.proto.Rejection;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SHARED_LOCALIZE: two clients fill one directory with conflicting names, and the conflicts are
 * resolved at ingest by one rule (directories merge, a directory beats a file, the lowest client
 * id wins between files) whatever order the publishes arrive in.
 */
class SharedLocalizeTest {
  @TempDir
  static Path workDir;
  static LocalCluster cluster;
  static IndexFsClient reader;

  @BeforeAll
  static void start() throws IOException {
    cluster = LocalCluster.builder(workDir).clusterName("shared").servers(1).start();
    reader = BulkPublishTest.client(cluster, TestData.USER, "reader");
  }

  @AfterAll
  static void stop() {
    reader.close();
    cluster.close();
  }

  /** What a client writes: its own names and the contested ones, with its id as the bytes. */
  static void fill(LocalSubtree t, String dir, String who) throws IOException {
    write(t, dir + "/x", who);
    t.mkdirs(dir + "/d", 0755);
    write(t, dir + "/d/only-" + who, who);
    write(t, dir + "/d/both", who);
    if (who.equals("a")) {
      t.mkdirs(dir + "/e", 0755);
      write(t, dir + "/e/inside", who);
    } else {
      write(t, dir + "/e", who);
    }
  }

  static void write(LocalSubtree t, String path, String content) throws IOException {
    byte[] bytes = ("from-" + content).getBytes();
    t.complete(t.create(path, 0644, false, 1, 1 << 20).status().getInodeId(), bytes.length, bytes, null);
  }

  /** Every entry below {@code dir}: path → "dir" or the file's bytes. */
  static Map<String, String> outcome(String dir) throws IOException {
    Map<String, String> out = new TreeMap<>();
    for (FileStatus s : reader.listAll(dir)) {
      String p = dir + "/" + s.getName();
      if (s.getType() == FileType.DIRECTORY) {
        out.put(s.getName(), "dir");
        outcome(p).forEach((k, v) -> out.put(s.getName() + "/" + k, v));
      } else {
        out.put(s.getName(), reader.open(p).getInlineData().toStringUtf8());
      }
    }
    return out;
  }

  Map<String, String> run(String dir, boolean aFirst, List<Rejection> reports) throws IOException {
    reader.mkdirs(dir, 0777);
    try (IndexFsClient a = BulkPublishTest.client(cluster, TestData.USER, "client-a");
        IndexFsClient b = BulkPublishTest.client(cluster, TestData.USER, "client-b")) {
      BulkInsertion bulkA = new BulkInsertion(a, new DirectoryShipper(cluster.dataUri()), "buffer",
          workDir.resolve("scratch"), 100_000, 1L << 30);
      BulkInsertion bulkB = new BulkInsertion(b, new DirectoryShipper(cluster.dataUri()), "buffer",
          workDir.resolve("scratch"), 100_000, 1L << 30);
      fill(bulkA.localize(dir, 0777, true), dir, "a");
      fill(bulkB.localize(dir, 0777, true), dir, "b");
      List<BulkInsertion> order = aFirst ? List.of(bulkA, bulkB) : List.of(bulkB, bulkA);
      for (BulkInsertion bulk : order) {
        PublishResult r = bulk.publish(dir, false);
        reports.addAll(r.getRejectedList());
      }
      for (BulkInsertion bulk : order) {
        bulk.publish(dir, true);
      }
    }
    return outcome(dir);
  }

  @Test
  void conflictingPublishesResolveTheSameWayInEitherOrder() throws Exception {
    List<Rejection> aFirstReports = new ArrayList<>();
    List<Rejection> bFirstReports = new ArrayList<>();
    Map<String, String> aFirst = run("/shared-ab", true, aFirstReports);
    Map<String, String> bFirst = run("/shared-ba", false, bFirstReports);
    Map<String, String> expected = new TreeMap<>(Map.of(
        "x", "from-a", "d", "dir", "d/only-a", "from-a", "d/only-b", "from-b", "d/both", "from-a",
        "e", "dir", "e/inside", "from-a"));
    assertEquals(expected, aFirst);
    assertEquals(expected, bFirst);
    // Every conflict is reported: b's losing files when a came first; a's replacements when b did.
    Set<String> lost = new TreeSet<>();
    aFirstReports.forEach(r -> lost.add(r.getPath().substring("/shared-ab".length()) + " " + r.getCode()));
    assertEquals(Set.of("/x BAD_REQUEST", "/d/both BAD_REQUEST", "/e FILE_ALREADY_EXISTS"), lost, aFirstReports.toString());
    Set<String> replaced = new TreeSet<>();
    bFirstReports.forEach(r -> replaced.add(r.getPath().substring("/shared-ba".length()) + " " + r.getCode()));
    assertEquals(Set.of("/x OK", "/d/both OK", "/e OK"), replaced, bFirstReports.toString());
    for (Rejection r : bFirstReports) {
      assertTrue(r.getReason().contains("client-b"), r.getReason());
    }
  }
}
