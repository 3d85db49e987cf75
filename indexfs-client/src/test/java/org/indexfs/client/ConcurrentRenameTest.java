package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.FileStatus;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.Test;

/**
 * The server locks per directory (DESIGN §10): a rename locks both directories, in one global
 * order, and a directory rename runs alone. Many threads renaming files in both directions between
 * the same directories — and directories back and forth across the tree, and creating and deleting
 * beside them — must never deadlock and never lose or duplicate an entry.
 */
class ConcurrentRenameTest {
  private static final int THREADS = 8;
  private static final int FILES = 64;
  private static final int OPERATIONS_PER_THREAD = 400;
  private static final List<String> DIRS = List.of("/t/a", "/t/b", "/t/c/d", "/t/c/e");

  @Test
  void renamesInBothDirectionsNeverDeadlockAndNeverLoseAnEntry() throws Exception {
    // One connection and one server I/O thread per worker, so the server really runs them at once.
    try (LocalCluster cluster = LocalCluster.builder(TestData.newDir("renames")).set("indexfs.wal.sync", "false")
            .set("indexfs.server.io-threads", String.valueOf(THREADS)).start();
         IndexFsClient client = TestData.client(cluster)) {
      for (String d : DIRS) {
        client.mkdirs(d, 0755);
      }
      for (int f = 0; f < FILES; f++) {
        TestData.createClosed(client, DIRS.get(f % DIRS.size()) + "/f" + f);
      }
      AtomicLong renamed = new AtomicLong();
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      try {
        assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
          List<Future<?>> done = new ArrayList<>();
          for (int t = 0; t < THREADS; t++) {
            long seed = 1234 + t;
            done.add(pool.submit(() -> {
              ClusterConnection own = ClusterConnection.openUnshared(cluster.zookeeperConnect(),
                  cluster.clusterName(), 1 << 20, 10_000);
              try (IndexFsClient worker = new IndexFsClient(own, client.caller(), 30_000)) {
                churn(worker, new Random(seed), renamed);
              }
              return null;
            }));
          }
          for (Future<?> f : done) {
            f.get();
          }
        }, "a rename deadlocked");
      } finally {
        pool.shutdownNow();
      }
      // A random source holds the named file about a quarter of the time: a fifth of the attempts move one.
      assertTrue(renamed.get() > THREADS * OPERATIONS_PER_THREAD / 10, "only " + renamed + " renames took effect");
      Set<String> files = new TreeSet<>();
      int seen = 0;
      for (String d : DIRS) {
        for (FileStatus s : client.listAll(d)) {
          if (s.getName().startsWith("f")) {
            files.add(s.getName());
            seen++;
          }
        }
      }
      Set<String> expected = new TreeSet<>();
      for (int f = 0; f < FILES; f++) {
        expected.add("f" + f);
      }
      assertEquals(expected, files, "every file exists afterwards");
      assertEquals(FILES, seen, "and exactly once");
    }
  }

  /**
   * Random renames: a file from one directory to another (both directions happen), and now and then
   * a directory into another one and back; plus creates and deletes of scratch files alongside.
   */
  private static void churn(IndexFsClient client, Random random, AtomicLong renamed) throws Exception {
    for (int i = 0; i < OPERATIONS_PER_THREAD; i++) {
      int kind = random.nextInt(20);
      if (kind == 0) {
        // d moves under a and back: a directory rename runs alone in the namespace.
        if (client.rename("/t/c/d", "/t/a/sub")) {
          assertTrue(client.rename("/t/a/sub", "/t/c/d"), "the directory moves back");
        }
        continue;
      }
      if (kind == 1) {
        String scratch = "/t/c/e/s" + random.nextInt(1_000_000);
        TestData.createClosed(client, scratch);
        client.delete(scratch, false);
        continue;
      }
      String from = DIRS.get(random.nextInt(DIRS.size()));
      String to = DIRS.get(random.nextInt(DIRS.size()));
      String name = "f" + random.nextInt(FILES);
      try {
        if (client.rename(from + "/" + name, to + "/" + name)) {
          renamed.incrementAndGet();
        }
      } catch (IndexFsException e) {
        // The source directory was just moved away by another thread: the rename is refused, fine.
      }
    }
  }
}
