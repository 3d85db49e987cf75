package org.indexfs.client;

import java.io.IOException;
import java.util.List;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.schema.Bytes;
import org.indexfs.common.schema.EntryKey;
import org.indexfs.proto.FileStatus;
import org.indexfs.server.local.LocalCluster;
import org.indexfs.server.ns.Namespace;
import org.rocksdb.RocksIterator;

/** What the tests of a cluster of several slots share: clients of their own, placement, per-slot counts. */
final class Slots {
  private Slots() {}

  /** A client with a cache of its own, like a separate process. */
  static IndexFsClient client(LocalCluster cluster, String user, List<String> groups) throws IOException {
    ClusterConnection c = ClusterConnection.openUnshared(cluster.zookeeperConnect(), cluster.clusterName(),
        IndexFsConfig.RPC_MAX_FRAME_BYTES.defaultValue(), 10_000);
    return new IndexFsClient(c, IndexFsClient.caller(user, groups, user + "-client"), 30_000);
  }

  /** A new directory under {@code parent} whose home slot is not {@code avoid} (placement is random). */
  static FileStatus dirNotOn(IndexFsClient admin, String parent, String prefix, int avoid) throws IOException {
    for (int i = 0; i < 200; i++) {
      String path = child(parent, prefix + i);
      admin.mkdirs(path, 0777);
      FileStatus st = admin.getFileStatus(path);
      if (st.getZerothSlot() != avoid) {
        return st;
      }
    }
    throw new AssertionError("placement never left slot " + avoid);
  }

  /** A new directory under {@code parent} homed on {@code slot} (its path). */
  static String dirOn(IndexFsClient admin, String parent, String prefix, int slot) throws IOException {
    for (int i = 0; i < 500; i++) {
      String path = child(parent, prefix + i);
      admin.mkdirs(path, 0777);
      if (admin.getFileStatus(path).getZerothSlot() == slot) {
        return path;
      }
    }
    throw new AssertionError("placement never chose slot " + slot);
  }

  static String child(String parent, String name) {
    return (parent.equals("/") ? "" : parent) + "/" + name;
  }

  /** The entries of directory {@code dirId} stored on {@code slot}, counted in its RocksDB. */
  static long entriesOn(LocalCluster cluster, int slot, long dirId) {
    Namespace ns = cluster.server(slot).namespace();
    return countPrefix(ns, ns.store().entries(), dirId);
  }

  /** The listing-order records (the name index) of directory {@code dirId} on {@code slot}. */
  static long namesOn(LocalCluster cluster, int slot, long dirId) {
    Namespace ns = cluster.server(slot).namespace();
    return countPrefix(ns, ns.store().names(), dirId);
  }

  private static long countPrefix(Namespace ns, org.rocksdb.ColumnFamilyHandle cf, long dirId) {
    byte[] prefix = EntryKey.prefix(dirId);
    long n = 0;
    try (RocksIterator it = ns.store().iterator(cf, null)) {
      for (it.seek(prefix); it.isValid() && Bytes.startsWith(it.key(), prefix); it.next()) {
        n++;
      }
    }
    return n;
  }
}
