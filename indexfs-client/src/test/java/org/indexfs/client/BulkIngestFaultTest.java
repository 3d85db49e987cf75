package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.indexfs.client.bulk.BulkInsertion;
import org.indexfs.client.bulk.DirectoryShipper;
import org.indexfs.client.bulk.LocalSubtree;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.PublishResult;
import org.indexfs.server.FaultPoints;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * A publish stopped at each phase of its ingest, the server restarted: the subtree shows all of
 * the publish or none of it (never a part), and the holder's retry then lands it exactly once.
 */
class BulkIngestFaultTest {
  @TempDir
  static Path workDir;
  static LocalCluster cluster;
  static IndexFsClient reader;

  @BeforeAll
  static void start() throws IOException {
    cluster = LocalCluster.builder(workDir).clusterName("bulkfaults").servers(1)
        .set(IndexFsConfig.LOCALIZE_LEASE_MS.name(), "60000").start();
    reader = BulkPublishTest.client(cluster, "reader", "reader-client");
  }

  @AfterAll
  static void stop() {
    reader.close();
    cluster.close();
  }

  @AfterEach
  void noHook() {
    FaultPoints.install(null);
  }

  /** Makes {@code dir/d0..d2}, each with 100 one-byte files, in localized {@code t}; returns the relative names. */
  static Set<String> fill(LocalSubtree t, String dir) throws IOException {
    Set<String> made = new TreeSet<>();
    for (int d = 0; d < 3; d++) {
      t.mkdirs(dir + "/d" + d, 0755);
      made.add("d" + d);
      for (int i = 0; i < 100; i++) {
        String name = "d" + d + "/f" + i;
        t.complete(t.create(dir + "/" + name, 0644, false, 1, 1 << 20).status().getInodeId(), 1, new byte[] {7}, null);
        made.add(name);
      }
    }
    return made;
  }

  static Set<String> tree(IndexFsClient c, String dir) throws IOException {
    Set<String> out = new TreeSet<>();
    for (FileStatus s : c.listAll(dir)) {
      out.add(s.getName());
      if (s.getType() == org.indexfs.proto.FileType.DIRECTORY) {
        tree(c, dir + "/" + s.getName()).forEach(n -> out.add(s.getName() + "/" + n));
      }
    }
    return out;
  }

  @ParameterizedTest(name = "stop at {0}")
  @CsvSource({"publish.received, false", "publish.staged, false", "publish.ingested, true", "publish.recorded, true"})
  void aPublishStoppedAtAnyPhaseEndsAllOrNothing(String point, boolean committed) throws Exception {
    String dir = "/" + point.replace('.', '-');
    try (IndexFsClient holder = BulkPublishTest.client(cluster, TestData.USER, "holder-" + point)) {
      BulkInsertion bulk = new BulkInsertion(holder, new DirectoryShipper(cluster.dataUri()), "buffer",
          workDir.resolve("scratch"), 100_000, 1L << 30);
      LocalSubtree t = bulk.localize(dir, 0777, false);
      Set<String> made = fill(t, dir);
      AtomicBoolean fired = new AtomicBoolean();
      FaultPoints.install(p -> {
        if (p.equals(point) && fired.compareAndSet(false, true)) {
          throw new IllegalStateException("injected stop at " + point);
        }
      });
      assertThrows(IOException.class, () -> t.publish(false));
      assertTrue(fired.get());
      FaultPoints.install(null);
      cluster.restartServer();

      Set<String> seen = tree(reader, dir);
      assertEquals(committed ? made : Set.of(), seen, "all or nothing after a stop at " + point);

      PublishResult retry = t.publish(true);
      assertEquals(0, retry.getRejectedCount(), retry.toString());
      assertEquals(made, tree(reader, dir), "the retry lands every entry exactly once");
      List<String> top = reader.listAll(dir).stream().map(FileStatus::getName).collect(Collectors.toList());
      assertEquals(3, top.size());
    }
  }

  /**
   * A reader that arrives between a publish's two ingests (its entries, then the name index that
   * listings read) waits for both: it never finds a published file by getFileStatus that its
   * listing of the directory misses.
   */
  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void aReaderBetweenThePublishsTwoIngestsWaitsForBothAndSeesAllOfIt() throws Exception {
    String dir = "/between-ingests";
    ExecutorService readers = Executors.newSingleThreadExecutor();
    try (IndexFsClient holder = BulkPublishTest.client(cluster, TestData.USER, "holder-between")) {
      BulkInsertion bulk = new BulkInsertion(holder, new DirectoryShipper(cluster.dataUri()), "buffer",
          workDir.resolve("scratch-between"), 100_000, 1L << 30);
      LocalSubtree t = bulk.localize(dir, 0777, false);
      Set<String> made = fill(t, dir);
      AtomicReference<Future<String>> seen = new AtomicReference<>();
      AtomicBoolean answeredBetween = new AtomicBoolean();
      FaultPoints.install(p -> {
        if (p.equals("publish.ingested") && seen.get() == null) {
          Future<String> f = readers.submit(() -> found(dir + "/d0/f0") + " " + tree(reader, dir).size());
          seen.set(f);
          try {
            f.get(500, TimeUnit.MILLISECONDS);
            answeredBetween.set(true);
          } catch (TimeoutException waiting) {
            // As it should: the reader waits until both ingests are in.
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }
      });
      PublishResult r = t.publish(true);
      FaultPoints.install(null);
      assertEquals(0, r.getRejectedCount(), r.toString());
      String view = seen.get().get(30, TimeUnit.SECONDS);
      assertFalse(answeredBetween.get(), "a reader was answered between the two ingests: " + view);
      assertEquals("true " + made.size(), view, "stat and listing agree, and see all of the publish");
    } finally {
      readers.shutdownNow();
    }
  }

  private static boolean found(String path) throws IOException {
    try {
      reader.getFileStatus(path);
      return true;
    } catch (IndexFsException e) {
      if (e.code() == org.indexfs.proto.Code.FILE_NOT_FOUND) {
        return false;
      }
      throw e;
    }
  }
}
