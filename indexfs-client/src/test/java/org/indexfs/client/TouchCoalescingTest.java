package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.Request.OpCase;
import org.indexfs.server.FaultPoints;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Creates in a directory whose entry lives on another slot each raise that entry's mtime there
 * (HDFS moves a directory's mtime on every create). Concurrent ones share calls: N creates in one
 * directory, or one create in each of N directories whose entries share a slot, cost the entry's
 * slot fewer calls than creates; the directory's mtime ends at the latest create's, and a stat
 * from another client right after a create returns already shows it.
 */
class TouchCoalescingTest {
  private static final int N = 8;

  @TempDir
  static Path workDir;
  static LocalCluster cluster;
  static IndexFsClient writer;
  static IndexFsClient reader;

  @BeforeAll
  static void start() throws IOException {
    cluster = LocalCluster.builder(workDir).clusterName("touchcoalescing").servers(2)
        .set(IndexFsConfig.WAL_SYNC.name(), "false").start();
    writer = Slots.client(cluster, TestData.USER, List.of());
    reader = Slots.client(cluster, TestData.USER, List.of());
  }

  @AfterAll
  static void stop() {
    writer.close();
    reader.close();
    cluster.close();
  }

  @AfterEach
  void noHook() {
    FaultPoints.install(null);
  }

  /** Calls between slots that raise a directory's mtime (PARTITION calls: nothing else sends one here). */
  private static long partitionCalls() {
    long n = 0;
    for (int s = 0; s < cluster.serverCount(); s++) {
      n += cluster.server(s).metrics().ops().op(OpCase.PARTITION).count();
    }
    return n;
  }

  /** A new directory under {@code parent} homed away from the slot holding its entry. */
  private static String remoteEntryDir(String parent, String prefix) throws IOException {
    writer.mkdirs(parent, 0777);
    int entrySlot = writer.getFileStatus(parent).getZerothSlot(); // an unsplit parent: one partition
    for (int i = 0; i < 200; i++) {
      String path = parent + "/" + prefix + i;
      writer.mkdirs(path, 0777);
      if (writer.getFileStatus(path).getZerothSlot() != entrySlot) {
        return path;
      }
    }
    throw new AssertionError("placement never left slot " + entrySlot);
  }

  /**
   * Holds the first touch call until the other {@code n - 1} creates' touches are waiting behind
   * it (or 20 s passed), then runs {@code creates} and returns the PARTITION calls they cost.
   */
  private long callsOf(List<String> files) throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger joined = new AtomicInteger();
    AtomicInteger sends = new AtomicInteger();
    FaultPoints.install(p -> {
      if (p.equals("touch.joined")) {
        joined.incrementAndGet();
      } else if (p.equals("touch.send") && sends.getAndIncrement() == 0) {
        try {
          release.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    });
    long before = partitionCalls();
    List<CompletableFuture<Void>> creates = new ArrayList<>();
    for (String f : files) {
      creates.add(CompletableFuture.runAsync(() -> {
        try {
          FileStatus made = writer.create(f, 0644, false, 1, 1 << 20, false);
          // Another client, right after the create returned: the directory already shows it.
          String dir = f.substring(0, f.lastIndexOf('/'));
          long mtime = reader.getFileStatus(dir).getMtime();
          assertTrue(mtime >= made.getMtime(),
              dir + "'s mtime " + mtime + " is behind the create of " + f + " at " + made.getMtime());
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }, r -> new Thread(r).start()));
    }
    for (int i = 0; i < 2000 && joined.get() < files.size() - 1; i++) {
      Thread.sleep(10);
    }
    release.countDown();
    for (CompletableFuture<Void> c : creates) {
      c.get(60, TimeUnit.SECONDS);
    }
    return partitionCalls() - before;
  }

  @Test
  void concurrentCreatesInOneDirectoryShareTouchCalls() throws Exception {
    String dir = remoteEntryDir("/one", "d");
    writer.create(dir + "/probe", 0644, false, 1, 1 << 20, false);
    List<String> files = new ArrayList<>();
    for (int i = 0; i < N; i++) {
      files.add(dir + "/f" + i);
    }
    long calls = callsOf(files);
    assertTrue(calls < N, N + " concurrent creates in one directory made " + calls + " touch calls");
    long latest = 0;
    for (String f : files) {
      latest = Math.max(latest, reader.getFileStatus(f).getMtime());
    }
    assertEquals(latest, reader.getFileStatus(dir).getMtime(),
        "the directory's mtime is the latest create's");
  }

  @Test
  void createsInDirectoriesWhoseEntriesShareASlotShareTouchCalls() throws Exception {
    List<String> files = new ArrayList<>();
    List<String> dirs = new ArrayList<>();
    for (int i = 0; i < N; i++) {
      String dir = remoteEntryDir("/many", "p" + i + "-");
      writer.create(dir + "/probe", 0644, false, 1, 1 << 20, false);
      dirs.add(dir);
      files.add(dir + "/f");
    }
    long calls = callsOf(files);
    assertTrue(calls < N, "one create in each of " + N + " directories made " + calls + " touch calls");
    for (int i = 0; i < N; i++) {
      assertEquals(reader.getFileStatus(files.get(i)).getMtime(),
          reader.getFileStatus(dirs.get(i)).getMtime(), dirs.get(i) + "'s mtime is its create's");
    }
  }
}
