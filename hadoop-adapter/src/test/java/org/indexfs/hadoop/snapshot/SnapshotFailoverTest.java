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
 * as the old active did (an object file's bytes from the data tier's snapshot), takes new ones and
 * deletes old ones.
 */
class SnapshotFailoverTest {
  private static List<String> names(FileSystem fs, Path p) throws Exception {
    return Arrays.stream(fs.listStatus(p)).map(s -> s.getPath().getName()).toList();
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
      fs.allowSnapshot(s);
      fs.createSnapshot(s, "before");
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
      fs.createSnapshot(s, "after");
      assertThat(names(fs, new Path(s, ".snapshot/after/sub"))).containsExactly("f0", "f2", "later");
      fs.deleteSnapshot(s, "before");
      assertThrows(FileNotFoundException.class, () -> fs.getFileStatus(new Path(s, ".snapshot/before/sub/f1")));
      assertThat(names(fs, new Path(s, ".snapshot"))).containsExactly("after");
      fs.close();
    }
  }
}
