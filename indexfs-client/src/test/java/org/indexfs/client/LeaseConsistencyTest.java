package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.FileStatus;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two clients, each with its own cache, on a four-slot cluster with fixed 2 s directory-entry
 * leases (IndexFS §II-B): once a chmod, rename or delete of a directory returns to one client,
 * the other sees it on its very next call, although it had that directory cached; and the
 * mutation waits at most as long as the longest lease granted on the entry.
 */
class LeaseConsistencyTest {
  static final long LEASE_MS = 2_000;
  @TempDir
  static Path workDir;
  static LocalCluster cluster;
  static IndexFsClient admin;

  @BeforeAll
  static void start() throws Exception {
    cluster = LocalCluster.builder(workDir).clusterName("leases").servers(4)
        .set(IndexFsConfig.LEASE_POLICY.name(), "fixed")
        .set(IndexFsConfig.LEASE_FIXED_MS.name(), String.valueOf(LEASE_MS))
        .set(IndexFsConfig.LEASE_MAX_MS.name(), String.valueOf(LEASE_MS)).start();
    admin = Slots.client(cluster, TestData.USER, List.of());
    // Past the restart grace, so waits below come from leases granted here.
    Thread.sleep(LEASE_MS);
  }

  @AfterAll
  static void stop() {
    admin.close();
    cluster.close();
  }

  /** /a/b with a, b and the root on three different slots: resolving into b crosses twice. */
  static String[] chain(String prefix) throws IOException {
    FileStatus a = Slots.dirNotOn(admin, "/", prefix, 0);
    String aPath = "/" + a.getName();
    FileStatus b = Slots.dirNotOn(admin, aPath, "b", a.getZerothSlot());
    return new String[] {aPath, aPath + "/" + b.getName()};
  }

  @Test
  void afterChmod000ReturnsTheOtherClientCannotTraverseOnItsNextAttempt() throws IOException {
    String[] p = chain("perm");
    try (IndexFsClient bob = Slots.client(cluster, "bob", List.of("users"))) {
      bob.create(p[1] + "/f1", 0644, false, 1, 1 << 20, false);
      long cached = bob.rpcCounters().get(RpcCounters.TOTAL);
      bob.create(p[1] + "/f2", 0644, false, 1, 1 << 20, false);
      assertEquals(cached + 1, bob.rpcCounters().get(RpcCounters.TOTAL), "bob resolves through his cache");

      long start = System.nanoTime();
      admin.setPermission(p[0], 0);
      long tookMs = (System.nanoTime() - start) / 1_000_000;
      assertTrue(tookMs <= LEASE_MS + 300, "chmod waited " + tookMs + " ms, more than the 2 s lease");

      IndexFsException e = assertThrows(IndexFsException.class,
          () -> bob.create(p[1] + "/f3", 0644, false, 1, 1 << 20, false));
      assertEquals(Code.ACCESS_DENIED, e.code());
      admin.setPermission(p[0], 0777);
      bob.create(p[1] + "/f4", 0644, false, 1, 1 << 20, false);
    }
  }

  @Test
  void aChmodOfALeasedDirectoryWaitsNoLongerThanTheLease() throws IOException {
    String[] p = chain("wait");
    try (IndexFsClient other = Slots.client(cluster, TestData.USER, List.of())) {
      other.getFileStatus(p[1]);
      long start = System.nanoTime();
      admin.setPermission(p[0], 0700);
      long tookMs = (System.nanoTime() - start) / 1_000_000;
      assertTrue(tookMs >= 0 && tookMs <= LEASE_MS + 300, "chmod took " + tookMs + " ms");
      System.out.printf("chmod of a directory leased %d ms before: waited %d ms%n", LEASE_MS, tookMs);
    }
  }

  @Test
  void afterADirectoryRenameTheOldPathFailsAndTheNewWorksForEveryClient() throws IOException {
    String[] p = chain("mv");
    admin.create(p[1] + "/f", 0644, false, 1, 1 << 20, false);
    try (IndexFsClient other = Slots.client(cluster, TestData.USER, List.of())) {
      other.getFileStatus(p[1] + "/f");
      String moved = p[0] + "/moved";
      assertTrue(admin.rename(p[1], moved));
      IndexFsException e = assertThrows(IndexFsException.class, () -> other.getFileStatus(p[1] + "/f"));
      assertEquals(Code.FILE_NOT_FOUND, e.code());
      assertEquals("f", other.getFileStatus(moved + "/f").getName());
      other.create(moved + "/g", 0644, false, 1, 1 << 20, false);
      assertThrows(IndexFsException.class, () -> other.create(p[1] + "/h", 0644, false, 1, 1 << 20, false));
    }
  }

  @Test
  void afterADirectoryDeleteNoClientResolvesThroughIt() throws IOException {
    String[] p = chain("rm");
    admin.create(p[1] + "/f", 0644, false, 1, 1 << 20, false);
    try (IndexFsClient other = Slots.client(cluster, TestData.USER, List.of())) {
      other.getFileStatus(p[1] + "/f");
      assertTrue(admin.delete(p[1], true));
      IndexFsException e = assertThrows(IndexFsException.class,
          () -> other.create(p[1] + "/g", 0644, false, 1, 1 << 20, false));
      assertNotEquals(Code.OK, e.code());
      assertEquals(Code.FILE_NOT_FOUND, assertThrows(IndexFsException.class,
          () -> other.getFileStatus(p[1] + "/f")).code());
    }
  }
}
