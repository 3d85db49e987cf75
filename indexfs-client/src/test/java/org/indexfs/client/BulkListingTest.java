package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.indexfs.client.admin.AdminClient;
import org.indexfs.client.admin.FsckCheck;
import org.indexfs.client.admin.FsckResult;
import org.indexfs.client.admin.FsckSource;
import org.indexfs.client.bulk.BulkInsertion;
import org.indexfs.client.bulk.DirectoryShipper;
import org.indexfs.client.bulk.LocalSubtree;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.FileType;
import org.indexfs.proto.SafeModeRequest;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A publish keeps the name index (column family {@code names}, which listings page through) in
 * step with the entries it ingests: after two SHARED_LOCALIZE publishes that conflict — directories
 * merged, files replaced, a file replaced by a directory — every directory lists exactly the
 * entries a stat finds, each once, in HDFS order (names' bytes compared signed, so non-ASCII names
 * come first), with the winner's attributes; the index and the entries hold the same number of
 * records; and {@code admin -fsck} finds nothing wrong. On one slot, and on four where the published
 * directory then splits over the slots.
 */
class BulkListingTest {
  private static final int THRESHOLD = 60;

  @TempDir
  Path workDir;

  @ParameterizedTest(name = "{0} slot(s)")
  @ValueSource(ints = {1, 4})
  void publishedEntriesListOnceInHdfsOrderAndFsckIsClean(int slots) throws Exception {
    try (LocalCluster cluster = LocalCluster.builder(workDir.resolve("cluster")).clusterName("bulklist" + slots)
        .servers(slots).set(IndexFsConfig.SPLIT_THRESHOLD.name(), String.valueOf(THRESHOLD)).start();
        IndexFsClient reader = BulkPublishTest.client(cluster, TestData.USER, "reader");
        IndexFsClient a = BulkPublishTest.client(cluster, TestData.USER, "client-a");
        IndexFsClient b = BulkPublishTest.client(cluster, TestData.USER, "client-b")) {
      reader.mkdirs("/pub", 0777);
      BulkInsertion bulkA = bulk(cluster, a, "a");
      BulkInsertion bulkB = bulk(cluster, b, "b");
      LocalSubtree ta = bulkA.localize("/pub", 0777, true);
      LocalSubtree tb = bulkB.localize("/pub", 0777, true);
      fill(ta, "a");
      fill(tb, "b");
      // b first: a's publish then replaces b's files (x, d/both), replaces b's file e by its
      // directory, and merges its d into b's — every case that rewrites an existing name.
      assertTrue(bulkB.publish("/pub", false).getIngested() > 0);
      assertTrue(bulkA.publish("/pub", false).getIngested() > 0);
      // A second publish into directories that exist now.
      for (int i = 0; i < 20; i++) {
        write(ta, "/pub/d/late-" + i, "a");
      }
      bulkA.publish("/pub", true);
      bulkB.publish("/pub", true);

      Map<String, Map<String, String>> expected = expected();
      FileStatus pub = reader.getFileStatus("/pub");
      if (slots > 1) {
        // Released: the directory splits as usual; wait until its entries sit on more than one slot
        // and stop moving, so the listing below merges partitions.
        awaitSplitSettled(cluster, slots, pub.getInodeId());
      }
      for (Map.Entry<String, Map<String, String>> dir : expected.entrySet()) {
        List<FileStatus> listed = reader.listAll(dir.getKey());
        List<String> names = new ArrayList<>();
        listed.forEach(s -> names.add(s.getName()));
        List<String> inHdfsOrder = new ArrayList<>(dir.getValue().keySet());
        inHdfsOrder.sort((x, y) -> java.util.Arrays.compare(x.getBytes(StandardCharsets.UTF_8),
            y.getBytes(StandardCharsets.UTF_8)));
        assertEquals(inHdfsOrder, names, dir.getKey() + ": every entry once, in HDFS order");
        for (FileStatus s : listed) {
          String path = dir.getKey() + "/" + s.getName();
          FileStatus stat = reader.getFileStatus(path);
          // The index's record is the entry's: the winner of each conflict.
          assertEquals(stat.getInodeId(), s.getInodeId(), path);
          assertEquals(stat.getType(), s.getType(), path);
          String want = dir.getValue().get(s.getName());
          String got = s.getType() == FileType.DIRECTORY ? "dir" : reader.open(path).getInlineData().toStringUtf8();
          assertEquals(want, got, path);
        }
        long id = reader.getFileStatus(dir.getKey()).getInodeId();
        long[] held = held(cluster, slots, id);
        // A split in flight holds its moving records on both slots for a moment: ask again then.
        for (long deadline = System.currentTimeMillis() + 30_000;
            held[0] != dir.getValue().size() && System.currentTimeMillis() < deadline; held = held(cluster, slots, id)) {
          Thread.sleep(50);
        }
        assertEquals(dir.getValue().size(), held[0], dir.getKey() + ": entries");
        assertEquals(dir.getValue().size(), held[1], dir.getKey() + ": name-index records");
      }
      FsckResult fsck = fsck(cluster, reader);
      assertTrue(fsck.healthy(), "admin -fsck after the publishes: " + fsck.problems());
    }
  }

  /** The entries and the name-index records of directory {@code dirId}, summed over the slots. */
  private static long[] held(LocalCluster cluster, int slots, long dirId) {
    long[] out = new long[2];
    for (int slot = 0; slot < slots; slot++) {
      out[0] += Slots.entriesOn(cluster, slot, dirId);
      out[1] += Slots.namesOn(cluster, slot, dirId);
    }
    return out;
  }

  private BulkInsertion bulk(LocalCluster cluster, IndexFsClient c, String who) {
    return new BulkInsertion(c, new DirectoryShipper(cluster.dataUri()), "buffer", workDir.resolve("scratch-" + who),
        100_000, 1L << 30);
  }

  /** Names each client makes; the contested ones are x, d (both directories), d/both and e. */
  private static void fill(LocalSubtree t, String who) throws IOException {
    for (int i = 0; i < 150; i++) {
      write(t, "/pub/" + who + i, who);
    }
    // Names whose bytes are 0x80 and above: HDFS lists them before ASCII (signed comparison).
    write(t, "/pub/\u00e9t\u00e9-" + who, who);
    write(t, "/pub/\u65e5\u672c-" + who, who);
    write(t, "/pub/Z-" + who, who);
    write(t, "/pub/x", who);
    t.mkdirs("/pub/d", 0755);
    write(t, "/pub/d/only-" + who, who);
    write(t, "/pub/d/both", who);
    if (who.equals("a")) {
      t.mkdirs("/pub/e", 0755);
      write(t, "/pub/e/inside", who);
    } else {
      write(t, "/pub/e", who);
    }
  }

  private static void write(LocalSubtree t, String path, String who) throws IOException {
    byte[] bytes = ("from-" + who).getBytes(StandardCharsets.UTF_8);
    t.complete(t.create(path, 0644, false, 1, 1 << 20).status().getInodeId(), bytes.length, bytes, null);
  }

  /** Directory → (name → "dir" or the file's bytes), by the conflict rule (lowest client id wins). */
  private static Map<String, Map<String, String>> expected() {
    Map<String, String> pub = new HashMap<>();
    for (String who : List.of("a", "b")) {
      for (int i = 0; i < 150; i++) {
        pub.put(who + i, "from-" + who);
      }
      pub.put("\u00e9t\u00e9-" + who, "from-" + who);
      pub.put("\u65e5\u672c-" + who, "from-" + who);
      pub.put("Z-" + who, "from-" + who);
    }
    pub.put("x", "from-a");
    pub.put("d", "dir");
    pub.put("e", "dir");
    Map<String, String> d = new HashMap<>(Map.of("only-a", "from-a", "only-b", "from-b", "both", "from-a"));
    for (int i = 0; i < 20; i++) {
      d.put("late-" + i, "from-a");
    }
    Map<String, Map<String, String>> out = new TreeMap<>();
    out.put("/pub", pub);
    out.put("/pub/d", d);
    out.put("/pub/e", Map.of("inside", "from-a"));
    return out;
  }

  private static void awaitSplitSettled(LocalCluster cluster, int slots, long dirId) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 60_000;
    String last = "";
    int stable = 0;
    while (stable < 10) {
      assertTrue(System.currentTimeMillis() < deadline, "the published directory splits and settles: " + last);
      StringBuilder now = new StringBuilder();
      int holding = 0;
      for (int slot = 0; slot < slots; slot++) {
        long n = Slots.entriesOn(cluster, slot, dirId);
        holding += n > 0 ? 1 : 0;
        now.append(n).append(' ');
      }
      stable = holding > 1 && now.toString().equals(last) ? stable + 1 : 0;
      last = now.toString();
      Thread.sleep(100);
    }
  }

  /** {@code admin -fsck} over every slot, with the cluster held still (safe mode) as the tool does. */
  private static FsckResult fsck(LocalCluster cluster, IndexFsClient superuser) throws IOException {
    AdminClient admin = new AdminClient(superuser);
    Path data = Path.of(URI.create(cluster.dataUri().startsWith("file:") ? cluster.dataUri() : "file://" + cluster.dataUri()));
    admin.safeMode(SafeModeRequest.Action.ENTER);
    try {
      return FsckCheck.run(FsckSource.of(admin, slot -> {
        Map<String, Long> out = new HashMap<>();
        Path dir = data.resolve(String.valueOf(slot));
        if (Files.isDirectory(dir)) {
          try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
              out.put(slot + "/" + f.getFileName(), Files.size(f));
            }
          }
        }
        return out;
      }));
    } finally {
      admin.safeMode(SafeModeRequest.Action.LEAVE);
    }
  }
}
