package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.indexfs.client.bulk.BulkInsertion;
import org.indexfs.client.bulk.DirectoryShipper;
import org.indexfs.client.bulk.LocalSubtree;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.FileStatus;
import org.indexfs.server.local.LocalCluster;

/**
 * The cluster a bulk-insertion test class shares (in-process servers, RocksDB on disk, local data
 * tier) with the clients every test uses: an admin (the test's user) that makes the directories, a
 * reader of another user that does not wait out localizations, and the holders' {@link
 * BulkInsertion}s. {@link BulkSlots} is the four-slot one, with the helpers for directories across slots.
 */
class BulkCluster implements AutoCloseable {
  final LocalCluster cluster;
  final IndexFsClient admin;
  final IndexFsClient reader;
  private final Path workDir;

  BulkCluster(Path workDir, LocalCluster cluster) throws IOException {
    this.workDir = workDir;
    this.cluster = cluster;
    this.admin = BulkPublishTest.client(cluster, TestData.USER, "admin");
    this.reader = BulkPublishTest.client(cluster, "reader", "reader");
    reader.waitForLocalized(0);
  }

  /** {@code servers} slots named {@code name}, with {@code settings} (config key → value). */
  static BulkCluster start(Path workDir, String name, int servers, Map<String, String> settings) throws IOException {
    return new BulkCluster(workDir, startCluster(workDir, name, servers, settings));
  }

  static LocalCluster startCluster(Path workDir, String name, int servers, Map<String, String> settings)
      throws IOException {
    LocalCluster.Builder b = LocalCluster.builder(workDir).clusterName(name).servers(servers);
    settings.forEach(b::set);
    return b.start();
  }

  /** A client of {@code user} on its own connection, such as a holder. */
  IndexFsClient client(String user, String id) throws IOException {
    return BulkPublishTest.client(cluster, user, id);
  }

  /** A client of the test's user whose replies are overdue after {@code timeoutMs}, resent within {@code failoverWaitMs}. */
  IndexFsClient client(String id, long timeoutMs, long failoverWaitMs) throws IOException {
    ClusterConnection c = ClusterConnection.openUnshared(cluster.zookeeperConnect(), cluster.clusterName(),
        IndexFsConfig.RPC_MAX_FRAME_BYTES.defaultValue(), 10_000);
    return new IndexFsClient(c, IndexFsClient.caller(TestData.USER, List.of(), id), timeoutMs, failoverWaitMs);
  }

  BulkInsertion bulk(IndexFsClient c) {
    return new BulkInsertion(c, new DirectoryShipper(cluster.dataUri()), "buffer", workDir.resolve("scratch"),
        100_000, 1L << 30);
  }

  /** The names the reader lists in {@code dir}, sorted. */
  Set<String> listedNames(String dir) throws IOException {
    return reader.listAll(dir).stream().map(FileStatus::getName).collect(Collectors.toCollection(TreeSet::new));
  }

  /** Whether the reader sees {@code path} (absent is FILE_NOT_FOUND, nothing else). */
  boolean exists(String path) throws IOException {
    try {
      reader.getFileStatus(path);
      return true;
    } catch (IndexFsException e) {
      assertEquals(Code.FILE_NOT_FOUND, e.code(), e.getMessage());
      return false;
    }
  }

  /** Empty files {@code dir/f0} … {@code dir/f<n-1>} made in {@code t}. */
  static void files(LocalSubtree t, String dir, int n) throws IOException {
    for (int i = 0; i < n; i++) {
      t.complete(t.create(dir + "/f" + i, 0644, false, 1, 1 << 20).status().getInodeId(), 0, new byte[0], null);
    }
  }

  @Override
  public void close() {
    reader.close();
    admin.close();
    cluster.close();
  }
}
