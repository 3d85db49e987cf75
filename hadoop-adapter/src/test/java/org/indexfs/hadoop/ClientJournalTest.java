package org.indexfs.hadoop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileNotFoundException;
import java.net.URI;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.policy.SubtreePolicy;
import org.indexfs.common.policy.SubtreePolicy.Consistency;
import org.indexfs.common.policy.SubtreePolicy.Durability;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Durability {@code client-journal} (issue 18): a client filling a localized subtree journals each
 * operation on the data tier (a MiniDFSCluster) before it returns. The client dies before
 * publishing (its renewals stop, nothing is published); once its lease has expired the server has
 * nothing of its work, and another client replays its journal: every file, with its bytes (inline
 * and as a data object), appears — renames and deletes applied in order. A client that publishes
 * and closes normally leaves no journal behind.
 */
class ClientJournalTest {
  private static LocalCluster cluster;

  @BeforeAll
  static void start() {
    cluster = IndexFsTestCluster.startCluster("cjournal", Map.of(IndexFsConfig.LOCALIZE_LEASE_MS.name(), "2000"));
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  private static IndexFileSystem newFs() throws Exception {
    return (IndexFileSystem) FileSystem.newInstance(URI.create(cluster.defaultFs()), IndexFsTestCluster.conf(cluster));
  }

  @Test
  void anotherClientReplaysADeadClientsJournalAndTheWorkAppears() throws Exception {
    Path jobs = new Path("/cj-jobs");
    byte[] large = new byte[200 * 1024];
    new Random(18).nextBytes(large);
    IndexFileSystem dying = newFs();
    IndexFileSystem survivor = newFs();
    try {
      dying.mkdirs(jobs);
      dying.setPolicy(jobs, new SubtreePolicy(Consistency.LOCALIZED, Durability.CLIENT_JOURNAL));
      Path attempt = new Path(jobs, "attempt_7");
      assertTrue(dying.mkdirs(attempt));
      assertTrue(dying.mkdirs(new Path(attempt, "sub")));
      for (int i = 0; i < 10; i++) {
        try (FSDataOutputStream out = dying.create(new Path(attempt, "sub/part-" + i))) {
          out.write(("part " + i).getBytes());
        }
      }
      try (FSDataOutputStream out = dying.create(new Path(attempt, "large"))) {
        out.write(large);
      }
      assertTrue(dying.rename(new Path(attempt, "sub/part-0"), new Path(attempt, "renamed")));
      assertTrue(dying.delete(new Path(attempt, "sub/part-1"), false));
      assertEquals(0, survivor.listStatus(attempt).length, "nothing is published yet");

      // The client dies: no more renewals, no publish; its lease runs out on the server.
      dying.localizedPaths().bulk().stopRenewing();
      Thread.sleep(4_000);
      assertEquals(0, survivor.listStatus(attempt).length, "a dead holder leaves nothing on the server");

      long applied = survivor.replayClientJournals(attempt);
      assertEquals(1 + 10 + 1 + 1 + 1, applied, "mkdir, 10 files, large, rename, delete");
      assertEquals(8, survivor.listStatus(new Path(attempt, "sub")).length);
      assertThrows(FileNotFoundException.class, () -> survivor.getFileStatus(new Path(attempt, "sub/part-1")));
      try (FSDataInputStream in = survivor.open(new Path(attempt, "renamed"))) {
        byte[] back = new byte["part 0".length()];
        in.readFully(back);
        assertArrayEquals("part 0".getBytes(), back);
      }
      try (FSDataInputStream in = survivor.open(new Path(attempt, "large"))) {
        byte[] back = new byte[large.length];
        in.readFully(back);
        assertArrayEquals(large, back);
      }
      assertEquals(0, survivor.replayClientJournals(attempt), "a journal is replayed once");
    } finally {
      survivor.close();
      dying.close(); // its publish is refused (the lease is gone); the journal was replayed already
    }
  }

  @Test
  void aDeadClientsCheckedOutCopyIsReplayedByAnother() throws Exception {
    Path sandbox = new Path("/cj-decoupled");
    IndexFileSystem dying = newFs();
    IndexFileSystem survivor = newFs();
    try {
      dying.mkdirs(sandbox);
      dying.create(new Path(sandbox, "before")).close(); // on the server at check-out
      dying.setPolicy(sandbox, new SubtreePolicy(Consistency.DECOUPLED, Durability.CLIENT_JOURNAL));
      dying.checkout(sandbox);
      Path d = new Path(sandbox, "d");
      assertTrue(dying.mkdirs(d));
      for (int i = 0; i < 5; i++) {
        try (FSDataOutputStream out = dying.create(new Path(d, "f-" + i))) {
          out.write(("file " + i).getBytes());
        }
      }
      assertTrue(dying.rename(new Path(d, "f-0"), new Path(sandbox, "moved")));
      assertTrue(dying.delete(new Path(d, "f-1"), false));
      assertEquals(1, survivor.listStatus(sandbox).length, "the copy is private until its merge");

      // The client dies before merging: the copy (its bytes in the client's scratch space) dies with
      // it; the journal on the data tier does not, and another client replays it.
      long applied = survivor.replayClientJournals(sandbox);
      assertEquals(1 + 5 + 1 + 1, applied, "mkdir, 5 files, rename, delete");
      assertEquals(java.util.List.of("before", "d", "moved"), java.util.Arrays.stream(survivor.listStatus(sandbox))
          .map(s -> s.getPath().getName()).toList());
      assertEquals(java.util.List.of("f-2", "f-3", "f-4"), java.util.Arrays.stream(survivor.listStatus(d))
          .map(s -> s.getPath().getName()).toList());
      try (FSDataInputStream in = survivor.open(new Path(sandbox, "moved"))) {
        byte[] back = new byte["file 0".length()];
        in.readFully(back);
        assertArrayEquals("file 0".getBytes(), back);
      }
      assertEquals(0, survivor.replayClientJournals(sandbox), "a journal is replayed once");
    } finally {
      survivor.close();
      dying.close();
    }
  }

  @Test
  void aMergedCopyLeavesNoJournal() throws Exception {
    Path sandbox = new Path("/cj-merged");
    IndexFileSystem fs = newFs();
    IndexFileSystem other = newFs();
    try {
      fs.mkdirs(sandbox);
      fs.setPolicy(sandbox, new SubtreePolicy(Consistency.DECOUPLED, Durability.CLIENT_JOURNAL));
      fs.checkout(sandbox);
      fs.create(new Path(sandbox, "a")).close();
      assertEquals(0, fs.merge(sandbox).conflicts().size());
      assertEquals(1, other.listStatus(sandbox).length, "the merge applied the copy");
      assertEquals(0, other.replayClientJournals(sandbox), "and dropped the journal");
    } finally {
      other.close();
      fs.close();
    }
  }

  @Test
  void aClientThatPublishesLeavesNoJournal() throws Exception {
    Path jobs = new Path("/cj-clean");
    IndexFileSystem fs = newFs();
    IndexFileSystem other = newFs();
    try {
      fs.mkdirs(jobs);
      fs.setPolicy(jobs, new SubtreePolicy(Consistency.LOCALIZED, Durability.CLIENT_JOURNAL));
      Path attempt = new Path(jobs, "attempt_1");
      fs.mkdirs(attempt);
      fs.create(new Path(attempt, "a")).close();
      fs.close();
      assertEquals(1, other.listStatus(attempt).length, "close publishes");
      assertEquals(0, other.replayClientJournals(attempt), "and drops the journal");
    } finally {
      other.close();
    }
  }
}
