package org.indexfs.hadoop;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * getFileChecksum and setReplication with HDFS's semantics. The same bytes have the same checksum
 * in indexfs:// (inline or object) and in HDFS, so DistCp between them can skip unchanged files;
 * setReplication of an object file re-replicates its HDFS blocks.
 */
class ChecksumAndReplicationTest {
  private static final int MIB = 1 << 20;

  private static void write(FileSystem fs, Path file, byte[] data) throws Exception {
    try (FSDataOutputStream out = fs.create(file, true, 4096, (short) 3, MIB)) {
      out.write(data);
    }
  }

  @ParameterizedTest(name = "dfs.checksum.combine.mode={0}")
  @ValueSource(strings = {"MD5MD5CRC", "COMPOSITE_CRC"})
  void sameBytesHaveTheSameChecksumInIndexFsAndHdfs(String mode) throws Exception {
    Configuration conf = IndexFsTestCluster.conf();
    conf.set("dfs.checksum.combine.mode", mode);
    // 0 .. 64 KiB stay inline; 200 KiB and 3 MiB (three 1 MiB blocks) are HDFS objects.
    int[] sizes = {0, 1, 511, 512, 513, 10_000, 65_536, 200_000, 3 * MIB + 7};
    try (FileSystem fs = FileSystem.newInstance(IndexFsTestCluster.uri(), conf);
        FileSystem hdfs = FileSystem.newInstance(IndexFsTestCluster.hdfs().uri(), conf)) {
      for (int size : sizes) {
        byte[] data = TestData.bytes(size, size);
        Path mine = new Path("/checksum/" + mode + "/" + size);
        Path theirs = new Path("/checksum-reference/" + mode + "/" + size);
        write(fs, mine, data);
        write(hdfs, theirs, data);
        FileChecksum expected = hdfs.getFileChecksum(theirs);
        assertThat(fs.getFileChecksum(mine)).as("checksum of %d bytes", size).isEqualTo(expected);
        if (size > 1) {
          assertThat(fs.getFileChecksum(mine, size / 2)).as("checksum of the first half of %d bytes", size)
              .isEqualTo(hdfs.getFileChecksum(theirs, size / 2));
        }
      }
      // Different bytes, different checksum: the comparison above can fail.
      write(fs, new Path("/checksum/" + mode + "/other"), TestData.bytes(99, 10_000));
      assertThat(fs.getFileChecksum(new Path("/checksum/" + mode + "/other")))
          .isNotEqualTo(fs.getFileChecksum(new Path("/checksum/" + mode + "/10000")));
    }
  }

  @Test
  void setReplicationOfAnObjectFileChangesItsHdfsReplication() throws Exception {
    LocalCluster cluster = IndexFsTestCluster.get();
    DistributedFileSystem hdfs = IndexFsTestCluster.hdfs().fileSystem();
    try (FileSystem fs = FileSystem.newInstance(IndexFsTestCluster.uri(), IndexFsTestCluster.conf())) {
      Path file = new Path("/replication/object");
      write(fs, file, TestData.bytes(30, 2 * MIB));
      Path object = TestData.objectPath(cluster, ((IndexFileStatus) fs.getFileStatus(file)).dataObject());
      assertThat(hdfs.getFileStatus(object).getReplication()).isEqualTo((short) 3);

      assertThat(fs.setReplication(file, (short) 2)).isTrue();
      assertThat(fs.getFileStatus(file).getReplication()).isEqualTo((short) 2);
      assertThat(hdfs.getFileStatus(object).getReplication()).isEqualTo((short) 2);
      DataPathAssertions.eventually(() -> {
        for (var block : hdfs.getFileBlockLocations(object, 0, 2 * MIB)) {
          if (block.getHosts().length != 2) {
            return false;
          }
        }
        return true;
      }, "HDFS removes the third replica of every block");

      Path inline = new Path("/replication/inline");
      write(fs, inline, TestData.bytes(31, 100));
      assertThat(fs.setReplication(inline, (short) 1)).isTrue();
      assertThat(fs.getFileStatus(inline).getReplication()).isEqualTo((short) 1);
    }
  }
}
