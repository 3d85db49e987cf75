package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.proto.FileStatus;
import org.indexfs.server.journal.Journal;
import org.indexfs.server.local.EmbeddedZooKeeper;
import org.indexfs.server.local.LocalCluster;
import org.indexfs.server.store.MetadataStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The journal on the data tier (DESIGN §11): a store rebuilt from nothing but the data tier — the
 * latest checkpoint and the journal after it — holds exactly what the slot's own store holds,
 * record by record, splits (ingested SST files) included; and an active whose disk is lost after a
 * kill -9 comes back with every acknowledged change.
 */
class JournalReplicationTest {
  private static final long SEGMENT_BYTES = 32 << 10;

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void aStoreRebuiltFromTheDataTierHoldsExactlyWhatTheSlotHolds() throws Exception {
    Path work = TestData.newDir("journal-replica");
    try (LocalCluster cluster = LocalCluster.builder(work).clusterName("journal").servers(2)
        .set(IndexFsConfig.JOURNAL_ENABLED.name(), "true")
        .set(IndexFsConfig.JOURNAL_SEGMENT_BYTES.name(), String.valueOf(SEGMENT_BYTES))
        .set(IndexFsConfig.JOURNAL_CHECKPOINT_RECORDS.name(), "400")
        // A slot the workload touches less than 400 times checkpoints by time: every slot's
        // replica must start from a checkpoint past the first one.
        .set(IndexFsConfig.JOURNAL_CHECKPOINT_INTERVAL_MS.name(), "1000")
        .set(IndexFsConfig.SPLIT_THRESHOLD.name(), "100")
        .set(IndexFsConfig.HOME_SYNC_INTERVAL_MS.name(), "200").start();
         IndexFsClient client = Slots.client(cluster, TestData.USER, List.of())) {
      workload(client);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (splitsUnderway(cluster) && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      String dataUri = cluster.dataUri();
      for (int slot = 0; slot < 2; slot++) {
        try (Journal journal = Journal.open(dataUri, slot, SEGMENT_BYTES, 2)) {
          while (journal.latestCheckpoint() <= 0 && System.nanoTime() < deadline) {
            Thread.sleep(100);
          }
        }
      }
      for (int slot = 0; slot < 2; slot++) {
        cluster.stopServer(slot);
      }
      for (int slot = 0; slot < 2; slot++) {
        Path replicaDir = work.resolve("replica-" + slot);
        try (Journal journal = Journal.open(dataUri, slot, SEGMENT_BYTES, 2);
             MetadataStore original = MetadataStore.open(work.resolve("slot-" + slot))) {
          assertTrue(journal.latestCheckpoint() > 0, "slot " + slot + " published checkpoints");
          MetadataStore replica = journal.catchUp(MetadataStore.open(replicaDir), replicaDir);
          try {
            assertEquals(original.position(), replica.position());
            assertNull(StoreContents.firstDifference(StoreContents.of(original), StoreContents.of(replica)),
                "slot " + slot + ": the replica differs");
            System.out.printf("Slot %d: replica rebuilt from checkpoint %d and the journal up to %s, identical%n",
                slot, journal.latestCheckpoint(), replica.position());
          } finally {
            replica.close();
          }
        }
      }
    }
  }

  private static boolean splitsUnderway(LocalCluster cluster) {
    for (int slot = 0; slot < 2; slot++) {
      if (cluster.server(slot).splits().inFlight() > 0) {
        return true;
      }
    }
    return false;
  }

  /** Directories, files, renames within and across slots, deletes, and a directory that splits. */
  private static void workload(IndexFsClient client) throws IOException {
    FileStatus a = Slots.dirNotOn(client, "/", "a", -1);
    FileStatus b = Slots.dirNotOn(client, "/", "b", a.getZerothSlot());
    String da = "/" + a.getName();
    String db = "/" + b.getName();
    for (int i = 0; i < 60; i++) {
      TestData.createClosed(client, da + "/f" + i);
      client.mkdirs(da + "/d" + i + "/e", 0755);
    }
    for (int i = 0; i < 20; i++) {
      client.rename(da + "/f" + i, db + "/f" + i);
      client.rename(da + "/f" + (20 + i), da + "/g" + i);
      client.delete(da + "/d" + i, true);
    }
    client.mkdirs("/big", 0755);
    for (int i = 0; i < 500; i++) {
      TestData.createClosed(client, "/big/f" + i);
    }
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void anActiveWhoseDiskIsLostAfterAKillComesBackWithEveryAcknowledgedChange() throws Exception {
    Path work = TestData.newDir("journal-disk-lost");
    try (EmbeddedZooKeeper zk = new EmbeddedZooKeeper(work.resolve("zookeeper").toFile(), 0)) {
      Map<String, String> conf = new LinkedHashMap<>();
      conf.put("indexfs.server.dir", work.resolve("slot-0").toString());
      conf.put("indexfs.zookeeper.quorum", zk.connectString());
      conf.put(IndexFsConfig.SECURITY_ZOOKEEPER_DIGEST.name(), TestData.SERVERS_DIGEST);
      conf.put("indexfs.cluster.name", "disk-lost");
      conf.put("indexfs.zookeeper.session-timeout-ms", "2000");
      conf.put("indexfs.data.uri", work.resolve("data").toUri().toString());
      conf.put(IndexFsConfig.JOURNAL_ENABLED.name(), "true");
      conf.put(IndexFsConfig.JOURNAL_CHECKPOINT_RECORDS.name(), "500");
      Path log = work.resolve("server.log");
      List<String> acked = new ArrayList<>();
      try (IndexFsClient client = TestData.client(zk.connectString(), "disk-lost", 1_000)) {
        ServerProcess server = ServerProcess.start(conf, log);
        try {
          client.mkdirs("/w", 0755);
          for (int i = 0; i < 1500; i++) {
            TestData.createClosed(client, "/w/f" + i);
            acked.add("f" + i);
          }
          server.kill();
        } finally {
          server.close();
        }
        Checkpoints.deleteTree(work.resolve("slot-0"));
        assertTrue(!Files.exists(work.resolve("slot-0")));
        try (ServerProcess restarted = ServerProcess.start(conf, log)) {
          Set<String> listed = new HashSet<>();
          for (FileStatus s : client.listAll("/w")) {
            listed.add(s.getName());
          }
          assertEquals(new HashSet<>(acked), listed, "every acknowledged file, from the data tier alone");
        }
      }
    }
  }

  /** Deletes a directory tree (the lost disk). */
  private static final class Checkpoints {
    static void deleteTree(Path dir) throws IOException {
      try (var walk = Files.walk(dir)) {
        for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
  }
}
