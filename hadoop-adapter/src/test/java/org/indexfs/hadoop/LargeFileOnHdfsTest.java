package org.indexfs.hadoop;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The promise of the data path (issue "Block data through unmodified HDFS DataNodes"): a large
 * file written through indexfs:// is an ordinary HDFS file on the DataNodes, with HDFS's blocks,
 * replication and locations, and reads back byte for byte.
 */
class LargeFileOnHdfsTest {
  private static final long MIB = 1 << 20;
  private static final long LENGTH = 200 * MIB;
  private static final long BLOCK_SIZE = 64 * MIB;

  private static LocalCluster cluster;
  private static FileSystem fs;
  private static DistributedFileSystem hdfs;

  @BeforeAll
  static void start() throws Exception {
    cluster = IndexFsTestCluster.get();
    fs = FileSystem.newInstance(IndexFsTestCluster.uri(), IndexFsTestCluster.conf());
    hdfs = IndexFsTestCluster.hdfs().fileSystem();
  }

  @AfterAll
  static void stop() throws Exception {
    fs.close();
  }

  @Test
  void twoHundredMebibyteFileIsStoredAsReplicatedHdfsBlocksAndReadsBackIdentical() throws Exception {
    Path file = new Path("/large/two-hundred-mib.bin");
    long t0 = System.nanoTime();
    try (FSDataOutputStream out = fs.create(file, true, 1 << 16, (short) 3, BLOCK_SIZE)) {
      TestData.write(out, 200, LENGTH);
    }
    long writeMs = (System.nanoTime() - t0) / 1_000_000;

    FileStatus status = fs.getFileStatus(file);
    assertThat(status.getLen()).isEqualTo(LENGTH);
    assertThat(status.getReplication()).isEqualTo((short) 3);
    assertThat(status.getBlockSize()).isEqualTo(BLOCK_SIZE);

    // The same bytes, seen through the stock HDFS client: one HDFS file with HDFS blocks.
    String object = ((IndexFileStatus) status).dataObject();
    assertThat(object).as("a 200 MiB file lives in a data object").isNotNull();
    Path objectPath = TestData.objectPath(cluster, object);
    FileStatus onHdfs = hdfs.getFileStatus(objectPath);
    assertThat(onHdfs.getLen()).isEqualTo(LENGTH);
    assertThat(onHdfs.getReplication()).isEqualTo((short) 3);
    assertThat(onHdfs.getBlockSize()).isEqualTo(BLOCK_SIZE);
    DFSTestUtil.waitReplication(hdfs, objectPath, (short) 3);
    LocatedBlocks blocks = hdfs.getClient().getLocatedBlocks(objectPath.toUri().getPath(), 0, LENGTH);
    assertThat(blocks.locatedBlockCount()).isEqualTo(4); // 64 + 64 + 64 + 8 MiB
    long covered = 0;
    for (LocatedBlock block : blocks.getLocatedBlocks()) {
      assertThat(block.getLocations()).as("replicas of %s", block.getBlock()).hasSize(3);
      assertThat(block.getStartOffset()).isEqualTo(covered);
      covered += block.getBlockSize();
    }
    assertThat(covered).isEqualTo(LENGTH);

    long t1 = System.nanoTime();
    try (FSDataInputStream in = fs.open(file)) {
      TestData.verify(in, 200, LENGTH);
    }
    long readMs = (System.nanoTime() - t1) / 1_000_000;

    // Block locations through indexfs:// are the object's, so schedulers place tasks by them.
    assertSameLocations(fs.getFileBlockLocations(status, 0, LENGTH), hdfs.getFileBlockLocations(onHdfs, 0, LENGTH));
    assertSameLocations(fs.getFileBlockLocations(status, 100 * MIB, 70 * MIB),
        hdfs.getFileBlockLocations(onHdfs, 100 * MIB, 70 * MIB));
    assertThat(fs.getFileBlockLocations(status, 100 * MIB, 70 * MIB)).hasSize(2);
    List<LocatedFileStatus> located = DataPathAssertions.located(fs, file.getParent());
    assertThat(located).hasSize(1);
    assertSameLocations(located.get(0).getBlockLocations(),
        hdfs.getFileBlockLocations(onHdfs, 0, LENGTH));
    System.out.printf("200 MiB through indexfs:// over HDFS: write %d ms (%.0f MiB/s), read+verify %d ms (%.0f MiB/s)%n",
        writeMs, 200_000.0 / writeMs, readMs, 200_000.0 / readMs);

    assertThat(fs.delete(file, false)).isTrue();
    DataPathAssertions.eventually(() -> !hdfs.exists(objectPath), "the deleted file's object is reclaimed");
  }

  /** Same blocks, same replicas (the NameNode orders replicas afresh on every call). */
  private static void assertSameLocations(BlockLocation[] actual, BlockLocation[] expected) throws Exception {
    assertThat(actual).hasSameSizeAs(expected);
    for (int i = 0; i < expected.length; i++) {
      assertThat(actual[i].getOffset()).isEqualTo(expected[i].getOffset());
      assertThat(actual[i].getLength()).isEqualTo(expected[i].getLength());
      assertThat(replicas(actual[i])).hasSize(3).containsExactlyInAnyOrderElementsOf(replicas(expected[i]));
    }
  }

  private static List<String> replicas(BlockLocation b) throws Exception {
    List<String> out = new java.util.ArrayList<>();
    for (int r = 0; r < b.getNames().length; r++) {
      out.add(b.getNames()[r] + " " + b.getHosts()[r] + " " + b.getTopologyPaths()[r] + " " + b.getStorageIds()[r]);
    }
    return out;
  }
}
