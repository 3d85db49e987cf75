package org.indexfs.hadoop;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * HDFS's durability survives the move of the namespace: a DataNode dying in the middle of a write
 * through indexfs:// is handled by the stock HDFS client's pipeline recovery, and nothing is lost.
 */
class DataNodeFailureTest {
  private static final long MIB = 1 << 20;

  private MiniDFSCluster.DataNodeProperties stopped;

  @AfterEach
  void restartDataNode() throws Exception {
    if (stopped != null) {
      MiniDFSCluster hdfs = IndexFsTestCluster.hdfs().cluster();
      hdfs.restartDataNode(stopped, true);
      hdfs.waitActive();
      stopped = null;
    }
  }

  @Test
  void writeCompletesThroughPipelineRecoveryWhenADataNodeDiesMidWrite() throws Exception {
    LocalCluster cluster = IndexFsTestCluster.get();
    MiniDFSCluster hdfs = IndexFsTestCluster.hdfs().cluster();
    DistributedFileSystem dfs = IndexFsTestCluster.hdfs().fileSystem();
    Path file = new Path("/datanode-failure/file.bin");
    long length = 32 * MIB;
    long blockSize = 4 * MIB;
    try (FileSystem fs = FileSystem.newInstance(IndexFsTestCluster.uri(), IndexFsTestCluster.conf());
        FSDataOutputStream out = fs.create(file, true, 1 << 16, (short) 3, blockSize)) {
      TestData.write(new java.io.FilterOutputStream(out) {
        private long written;

        @Override
        public void write(byte[] b, int off, int len) throws java.io.IOException {
          out.write(b, off, len);
          written += len;
          if (written == 10 * MIB && stopped == null) {
            // Three replicas on three DataNodes: every pipeline runs through DataNode 0.
            stopped = hdfs.stopDataNode(0);
          }
        }
      }, 32, length);
    }
    assertThat(stopped).as("a DataNode was stopped during the write").isNotNull();
    assertThat(hdfs.getDataNodes()).hasSize(2);

    try (FileSystem fs = FileSystem.newInstance(IndexFsTestCluster.uri(), IndexFsTestCluster.conf())) {
      assertThat(fs.getFileStatus(file).getLen()).isEqualTo(length);
      try (FSDataInputStream in = fs.open(file)) {
        TestData.verify(in, 32, length);
      }
      String object = ((IndexFileStatus) fs.getFileStatus(file)).dataObject();
      Path objectPath = TestData.objectPath(cluster, object);
      assertThat(dfs.getFileStatus(objectPath).getLen()).isEqualTo(length);
      // Every block kept the replicas on the two DataNodes still alive.
      for (BlockLocation block : dfs.getFileBlockLocations(objectPath, 0, length)) {
        assertThat(block.getNames()).as("replicas of the block at %d", block.getOffset()).hasSizeGreaterThanOrEqualTo(2);
      }
      assertThat(fs.delete(file, false)).isTrue();
    }
  }
}
