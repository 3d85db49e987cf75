package org.indexfs.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.indexfs.hadoop.IndexFsTestCluster;
import org.junit.jupiter.api.Test;

/**
 * A client that dies in the middle of a write, through the gateway as on a NameNode: its file stays
 * open (under construction, its hflushed bytes readable) until someone recovers its lease; the
 * recovery closes the object on the data tier and the entry in IndexFS, keeping at least every
 * hflushed byte, and the file then reads as its first bytes. Both sides end the same.
 */
class DeadWriterTest {
  @Test
  void aDeadWritersFileIsLeftOpenThenRecoveredAsOnANameNode() throws Exception {
    byte[] data = new byte[1536 * 1024];
    new Random(3).nextBytes(data);
    Map<String, String> outcome = new LinkedHashMap<>();
    for (URI u : new URI[] {IndexFsTestCluster.hdfs().uri(), GatewayTestCluster.gateway().uri()}) {
      Path p = new Path("/dead-writer/file");
      try (FileSystem reader = FileSystem.newInstance(u, new Configuration())) {
        reader.delete(p.getParent(), true);
        DistributedFileSystem writer = (DistributedFileSystem) FileSystem.newInstance(u, new Configuration());
        FSDataOutputStream out = writer.create(p, true, 4096, (short) 3, 1024 * 1024);
        out.write(data, 0, 1024 * 1024 + 4096);
        out.hflush();
        out.write(data, 1024 * 1024 + 4096, 8192); // never flushed
        // The writer dies: its stream never completes and its lease is never renewed again.
        org.apache.hadoop.hdfs.DFSClientAdapter.stopLeaseRenewer(writer);
        org.apache.hadoop.hdfs.DFSTestUtil.abortStream((org.apache.hadoop.hdfs.DFSOutputStream) out.getWrappedStream());

        DistributedFileSystem dfs = (DistributedFileSystem) reader;
        assertThat(dfs.isFileClosed(p)).as("open after its writer died (%s)", u).isFalse();
        try (FSDataInputStream in = reader.open(p)) {
          byte[] visible = new byte[1024 * 1024 + 4096];
          in.readFully(0, visible);
          assertThat(visible).as("hflushed bytes readable while open").isEqualTo(Arrays.copyOf(data, visible.length));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        boolean recovered = dfs.recoverLease(p);
        while (!recovered && System.nanoTime() < deadline) {
          Thread.sleep(500);
          recovered = dfs.recoverLease(p);
        }
        assertThat(recovered).as("lease recovered (%s)", u).isTrue();
        assertThat(dfs.isFileClosed(p)).isTrue();
        long length = reader.getFileStatus(p).getLen();
        assertThat(length).as("keeps every hflushed byte").isGreaterThanOrEqualTo(1024 * 1024 + 4096);
        try (FSDataInputStream in = reader.open(p)) {
          assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOf(data, (int) length));
        }
        outcome.put(u.getScheme() + (u.equals(GatewayTestCluster.gateway().uri()) ? " via gateway" : ""),
            "closed at " + length);
      }
    }
    System.out.println("Dead writer: " + outcome);
    assertThat(outcome).hasSize(2);
    assertThat(new java.util.HashSet<>(outcome.values())).as("the same outcome on both: %s", outcome).hasSize(1);
  }
}
