package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.policy.SubtreePolicy;
import org.indexfs.common.policy.SubtreePolicy.Consistency;
import org.indexfs.common.policy.SubtreePolicy.Durability;
import org.indexfs.server.local.LocalCluster;
import org.indexfs.server.store.GroupCommit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Durability per subtree (issue 18) on one slot with {@code wal.sync=true}: a mutation under an
 * async subtree is answered before its fsync (no reply of it waits in group commit) and the fsync
 * follows within {@code indexfs.wal.async-window-ms} even when no sync write comes to carry it; a
 * mutation under a sync subtree waits for its own fsync as before; one that touches both waits.
 * (Crash behaviour: {@link SubtreeDurabilityCrashTest}.)
 */
class SubtreeDurabilityTest {
  private static final long WINDOW_MS = 300;
  @TempDir
  static Path workDir;
  static LocalCluster cluster;
  static IndexFsClient client;

  @BeforeAll
  static void start() throws IOException {
    cluster = LocalCluster.builder(workDir).clusterName("durability").servers(1)
        .set(IndexFsConfig.WAL_SYNC.name(), "true")
        .set(IndexFsConfig.WAL_ASYNC_WINDOW_MS.name(), String.valueOf(WINDOW_MS)).start();
    client = TestData.client(cluster);
    client.mkdirs("/async/deep", 0755);
    client.mkdirs("/sync", 0755);
    client.setPolicy("/async", new SubtreePolicy(Consistency.STRONG, Durability.ASYNC));
  }

  @AfterAll
  static void stop() {
    client.close();
    cluster.close();
  }

  private static GroupCommit commit() {
    return cluster.server().namespace().groupCommit();
  }

  @Test
  void asyncSubtreeRepliesBeforeItsFsyncWhichFollowsWithinTheWindow() throws Exception {
    int n = 300;
    long waitedBefore = commit().completions();
    long syncsBefore = commit().syncCount();
    long asyncBefore = commit().asyncWrites();
    long started = System.nanoTime();
    for (int i = 0; i < n; i++) {
      TestData.createClosed(client, "/async/deep/f" + i);
    }
    long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    assertEquals(0, commit().completions() - waitedBefore, "an async subtree's reply waited for an fsync");
    assertEquals(2L * n, commit().asyncWrites() - asyncBefore, "create + complete, each answered before its fsync");
    // Nothing carries these writes but the window: about one fsync per window, not one per call.
    long syncs = commit().syncCount() - syncsBefore;
    assertTrue(syncs <= elapsedMs / WINDOW_MS + 2, syncs + " fsyncs in " + elapsedMs + " ms");

    // Within the window of the last write, an fsync covers it though nobody asks.
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WINDOW_MS * 10);
    long syncsAfterWrites = commit().syncCount();
    while (commit().syncCount() == syncsAfterWrites && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertTrue(commit().syncCount() > syncsAfterWrites || syncs > 0, "no fsync followed the async writes");
    long lag = commit().maxAsyncLagMillis();
    // The lag runs to the end of the covering fsync: the window plus one fsync on a busy machine.
    assertTrue(lag <= WINDOW_MS + 250, "an async write stayed unsynced " + lag + " ms; window " + WINDOW_MS + " ms");
    System.out.printf("async subtree: %d calls in %d ms, %d fsyncs, max unsynced %d ms (window %d ms)%n",
        2 * n, elapsedMs, syncs, lag, WINDOW_MS);
  }

  @Test
  void syncSubtreeRepliesWaitForTheirFsync() throws Exception {
    int n = 50;
    long waitedBefore = commit().completions();
    long asyncBefore = commit().asyncWrites();
    for (int i = 0; i < n; i++) {
      TestData.createClosed(client, "/sync/f" + i);
    }
    assertEquals(2L * n, commit().completions() - waitedBefore, "every sync reply waits for an fsync");
    assertEquals(0, commit().asyncWrites() - asyncBefore);
  }

  @Test
  void aRenameFromAnAsyncSubtreeIntoASyncOneWaits() throws Exception {
    TestData.createClosed(client, "/async/moving");
    long waitedBefore = commit().completions();
    long asyncBefore = commit().asyncWrites();
    assertTrue(client.rename("/async/moving", "/sync/moved"));
    assertEquals(1, commit().completions() - waitedBefore, "the rename changes a sync subtree: it waits");
    assertEquals(0, commit().asyncWrites() - asyncBefore);
  }

  @Test
  void hsyncUnderAnAsyncSubtreeStillWaitsForItsFsync() throws Exception {
    long id = client.create("/async/synced", 0644, false, 1, 1 << 20, false).getInodeId();
    long waitedBefore = commit().completions();
    client.flush("/async/synced", id, 3, "abc".getBytes(), null, false); // hflush: the subtree's rule
    assertEquals(0, commit().completions() - waitedBefore, "hflush under async does not wait");
    client.flush("/async/synced", id, 3, "abc".getBytes(), null, true); // hsync asks for durability
    assertEquals(1, commit().completions() - waitedBefore, "hsync waits for its fsync whatever the policy");
    client.complete("/async/synced", id, 3, "abc".getBytes(), null);
  }
}
