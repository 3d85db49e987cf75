package org.indexfs.hadoop.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.FileNotFoundException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.hadoop.IndexFileSystem;
import org.indexfs.hadoop.IndexFsTestCluster;
import org.indexfs.server.SlotRunner;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Snapshots survive a failover (issue 14 × issue 17): a snapshot lives in its directory's home
 * slot's RocksDB, so the journal carries it; the standby that took the slot over lists and reads it
 * as the old active did (an object file's bytes from the data tier's snapshot, an entry's xattrs and
 * ACL as they were), takes new ones and
 * deletes old ones.
 */
class SnapshotFailoverTest {
  private static List<String> names(FileSystem fs, Path p) throws Exception {
    return Arrays.stream(fs.listStatus(p)).map(s -> s.getPath().getName()).toList();
  }

  /** Entry and xattr/ACL rows kept for snapshots ({@code snap.e/}, {@code snap.a/}) in the slot's store. */
  private static int copiedRows(SlotRunner slot) {
    org.indexfs.server.store.MetadataStore store = slot.current().namespace().store();
    int n = 0;
    for (String kind : new String[] {"snap.e/", "snap.a/"}) {
      byte[] prefix = kind.getBytes(java.nio.charset.StandardCharsets.UTF_8);
      try (org.indexfs.server.store.PrefixIterator bounded = store.prefixIterator(store.meta(), prefix)) {
        org.rocksdb.RocksIterator it = bounded.it();
        for (it.seek(prefix); it.isValid() && org.indexfs.common.schema.Bytes.startsWith(it.key(), prefix); it.next()) {
          n++;
        }
      }
    }
    return n;
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void theStandbyReadsTakesAndDeletesSnapshots() throws Exception {
    try (LocalCluster cluster = IndexFsTestCluster.startCluster("snapfailover", 1, Map.of(
        IndexFsConfig.JOURNAL_ENABLED.name(), "true", IndexFsConfig.ZOOKEEPER_SESSION_TIMEOUT_MS.name(), "3000"))) {
      SlotRunner standby = cluster.startStandby(0);
      IndexFileSystem fs = (IndexFileSystem) FileSystem.newInstance(java.net.URI.create(cluster.defaultFs()),
          IndexFsTestCluster.conf(cluster));
      Path s = new Path("/s");
      for (int i = 0; i < 3; i++) {
        fs.create(new Path(s, "sub/f" + i)).close();
      }
      byte[] big = new byte[200_000];
      new java.util.Random(1).nextBytes(big);
      try (FSDataOutputStream out = fs.create(new Path(s, "big"))) {
        out.write(big);
      }
      Path f0 = new Path(s, "sub/f0");
      fs.setXAttr(f0, "user.kept", "then".getBytes());
      fs.modifyAclEntries(f0, org.apache.hadoop.fs.permission.AclEntry.parseAclSpec("user:bruce:rw-", true));
      fs.allowSnapshot(s);
      fs.createSnapshot(s, "before");
      fs.setXAttr(f0, "user.kept", "now".getBytes());
      fs.removeAcl(f0);
      fs.delete(new Path(s, "sub/f1"), false);
      fs.delete(new Path(s, "big"), false);
      fs.create(new Path(s, "sub/later")).close();

      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
      while (standby.standby() == null
          || !standby.standby().position().equals(cluster.server(0).namespace().store().position())) {
        assertThat(System.nanoTime()).as("the standby catches up").isLessThan(deadline);
        Thread.sleep(50);
      }
      cluster.stopServer(0);
      while (standby.current() == null) {
        assertThat(System.nanoTime()).as("the standby takes over").isLessThan(deadline);
        Thread.sleep(20);
      }

      assertThat(names(fs, new Path(s, ".snapshot"))).containsExactly("before");
      assertThat(names(fs, new Path(s, ".snapshot/before/sub"))).containsExactly("f0", "f1", "f2");
      byte[] read = new byte[big.length];
      try (var in = fs.open(new Path(s, ".snapshot/before/big"))) {
        in.readFully(read);
      }
      assertThat(read).isEqualTo(big);
      Path keptF0 = new Path(s, ".snapshot/before/sub/f0");
      assertThat(fs.getXAttr(keptF0, "user.kept")).isEqualTo("then".getBytes());
      assertThat(fs.getAclStatus(keptF0).getEntries()).hasSize(2); // user:bruce and the unnamed group
      assertThat(fs.getAclStatus(f0).getEntries()).isEmpty();
      fs.createSnapshot(s, "after");
      assertThat(names(fs, new Path(s, ".snapshot/after/sub"))).containsExactly("f0", "f2", "later");
      fs.deleteSnapshot(s, "before");
      assertThrows(FileNotFoundException.class, () -> fs.getFileStatus(new Path(s, ".snapshot/before/sub/f1")));
      assertThat(names(fs, new Path(s, ".snapshot"))).containsExactly("after");
      assertThat(fs.getXAttr(new Path(s, ".snapshot/after/sub/f0"), "user.kept")).isEqualTo("now".getBytes());
      assertThat(copiedRows(standby)).as("the copies of both snapshots' entries and rows").isNotZero();
      fs.deleteSnapshot(s, "after");
      assertThat(copiedRows(standby)).as("a deleted snapshot leaves none of its entries or rows").isZero();
      fs.close();
    }
  }
}
