package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.indexfs.server.local.LocalCluster;
import org.indexfs.server.ns.Namespace;
import org.junit.jupiter.api.Test;

/**
 * With {@code indexfs.wal.sync=true} a mutation returns only once its WAL record is fsynced, and
 * concurrent writers share those fsyncs (group commit, as HDFS's logSync): the number of syncs
 * ends up below the number of mutations. A count, not a timing.
 */
class WalGroupCommitTest {
  private static final int WRITERS = 16;
  private static final int DIRS_PER_WRITER = 100;

  @Test
  void concurrentWritersShareWalSyncs() throws Exception {
    try (LocalCluster cluster = LocalCluster.builder(TestData.newDir("group-commit"))
            .set("indexfs.wal.sync", "true").start();
         IndexFsClient client = TestData.client(cluster)) {
      Namespace ns = cluster.server().namespace();
      long mutationsBefore = ns.mutationCount();
      long syncsBefore = ns.groupCommit().syncCount();

      ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
      try {
        List<Future<?>> done = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
          String dir = "/writer-" + w;
          done.add(writers.submit(() -> {
            for (int i = 0; i < DIRS_PER_WRITER; i++) {
              assertTrue(client.mkdirs(dir + "/d" + i, 0755));
            }
            return null;
          }));
        }
        for (Future<?> f : done) {
          f.get();
        }
      } finally {
        writers.shutdownNow();
      }

      long mutations = ns.mutationCount() - mutationsBefore;
      long syncs = ns.groupCommit().syncCount() - syncsBefore;
      assertEquals(WRITERS * DIRS_PER_WRITER, mutations);
      assertTrue(syncs > 0, "wal.sync=true must fsync");
      assertTrue(syncs < mutations, syncs + " fsyncs for " + mutations + " mutations: none shared");
    }
  }
}
