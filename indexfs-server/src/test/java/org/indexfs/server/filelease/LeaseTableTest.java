package org.indexfs.server.filelease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.indexfs.server.ns.Namespace;
import org.indexfs.server.store.MetadataStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Lease records on a real RocksDB, and the soft and hard limits of HDFS's LeaseManager. */
class LeaseTableTest {
  @TempDir
  Path dir;

  private static FileLease lease(long inode, String holder) {
    return new FileLease(inode, holder, 1234, "file-" + inode, "0/" + (inode + 1000));
  }

  @Test
  void leasesAreDurableAcrossARestartAndReleasedWithTheirBatch() throws Exception {
    try (MetadataStore store = MetadataStore.open(dir);
          Namespace ns = new Namespace(store, 0, true, "root", "supergroup")) {
      LeaseTable leases = new LeaseTable(ns, 60_000, 600_000);
      ns.mutate(batch -> {
        leases.grant(batch, lease(17, "client-a"));
        leases.grant(batch, lease(18, "client-b"));
        return null;
      });
      ns.mutate(batch -> {
        leases.put(batch, leases.get(17).movedTo(99, "renamed", java.util.List.of()));
        leases.release(batch, 18);
        return null;
      });
    }
    try (MetadataStore store = MetadataStore.open(dir);
          Namespace ns = new Namespace(store, 0, true, "root", "supergroup")) {
      LeaseTable leases = new LeaseTable(ns, 60_000, 600_000);
      assertEquals(List.of(new FileLease(17, "client-a", 99, "renamed", "0/1017")), leases.all());
      assertNull(leases.get(18));
      // After a restart every holder starts a fresh period, as in HDFS.
      assertFalse(leases.softLimitExpired("client-a"));
    }
  }

  @Test
  void aHolderThatStopsRenewingPassesTheSoftThenTheHardLimit() throws Exception {
    try (MetadataStore store = MetadataStore.open(dir);
          Namespace ns = new Namespace(store, 0, true, "root", "supergroup")) {
      LeaseTable leases = new LeaseTable(ns, 100, 300);
      leases.renew("writer");
      assertFalse(leases.softLimitExpired("writer"));
      Thread.sleep(150);
      assertTrue(leases.softLimitExpired("writer"));
      assertFalse(leases.hardLimitExpired("writer"));
      leases.renew("writer");
      assertFalse(leases.softLimitExpired("writer"));
      Thread.sleep(350);
      assertTrue(leases.hardLimitExpired("writer"));
      // The server's own holders (recovery, concat) are never expired by the clock.
      assertFalse(leases.hardLimitExpired(LeaseTable.RECOVERY_HOLDER));
      assertFalse(leases.hardLimitExpired(LeaseTable.CONCAT_HOLDER));
    }
  }

  @Test
  void aConcatLeaseIsAbandonedOnlyWhenNoRunningConcatOwnsIt() throws Exception {
    try (MetadataStore store = MetadataStore.open(dir);
          Namespace ns = new Namespace(store, 0, true, "root", "supergroup")) {
      LeaseTable leases = new LeaseTable(ns, 60_000, 600_000);
      FileLease concat = lease(5, LeaseTable.CONCAT_HOLDER);
      assertTrue(leases.abandonedConcat(concat));
      leases.concatStarted(5);
      assertFalse(leases.abandonedConcat(concat));
      leases.concatEnded(5);
      assertTrue(leases.abandonedConcat(concat));
      assertFalse(leases.abandonedConcat(lease(5, "client")));
    }
  }
}
