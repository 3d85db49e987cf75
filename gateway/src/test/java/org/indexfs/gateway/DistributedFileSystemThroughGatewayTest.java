package org.indexfs.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.io.IOUtils;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The stock DistributedFileSystem on hdfs://<gateway>: what it writes is IndexFS's (seen through
 * indexfs://, with its bytes in a data object), and what indexfs:// writes it reads, inline files
 * included, byte for byte.
 */
class DistributedFileSystemThroughGatewayTest {
  private static LocalCluster cluster;
  private static FileSystem hdfs;
  private static FileSystem indexfs;

  @BeforeAll
  static void start() throws IOException {
    cluster = GatewayTestCluster.indexfs();
    hdfs = GatewayTestCluster.newFileSystem(GatewayTestCluster.gateway());
    indexfs = GatewayTestCluster.indexfsFileSystem(cluster);
  }

  @AfterAll
  static void stop() throws IOException {
    hdfs.close();
    indexfs.close();
  }

  @Test
  void theClientIsTheStockHdfsOne() {
    assertThat(hdfs).isInstanceOf(DistributedFileSystem.class);
    assertThat(hdfs.getUri().getScheme()).isEqualTo("hdfs");
  }

  @Test
  void namesMadeThroughTheGatewayAreIndexFsNames() throws IOException {
    Path dir = new Path("/dfs/names/a/b");
    assertThat(hdfs.mkdirs(dir, new FsPermission((short) 0750))).isTrue();
    FileStatus st = indexfs.getFileStatus(dir);
    assertThat(st.isDirectory()).isTrue();
    assertThat(hdfs.getFileStatus(dir).getPermission()).isEqualTo(st.getPermission());
    assertThat(hdfs.rename(dir, new Path("/dfs/names/a/c"))).isTrue();
    assertThat(indexfs.exists(new Path("/dfs/names/a/c"))).isTrue();
    assertThat(indexfs.exists(dir)).isFalse();
    hdfs.setPermission(new Path("/dfs/names/a/c"), new FsPermission((short) 0700));
    assertThat(indexfs.getFileStatus(new Path("/dfs/names/a/c")).getPermission().toShort()).isEqualTo((short) 0700);
    assertThat(hdfs.delete(new Path("/dfs/names/a"), true)).isTrue();
    assertThat(indexfs.exists(new Path("/dfs/names/a"))).isFalse();
    assertThatThrownBy(() -> hdfs.getFileStatus(dir)).isInstanceOf(FileNotFoundException.class);
  }

  @Test
  void aFileWrittenThroughTheGatewayIsAnObjectFileFromTheStart() throws IOException {
    Path small = new Path("/dfs/files/small.txt");
    byte[] hello = "hello, gateway".getBytes(StandardCharsets.UTF_8);
    try (FSDataOutputStream out = hdfs.create(small)) {
      out.write(hello);
    }
    FileStatus st = indexfs.getFileStatus(small);
    assertThat(st.getLen()).isEqualTo(hello.length);
    assertThat(dataObjectOf(small)).as("data object").isNotNull();
    assertThat(read(indexfs, small)).isEqualTo(hello);
    assertThat(read(hdfs, small)).isEqualTo(hello);
  }

  @Test
  void aMultiBlockFileRoundTripsBothWays() throws IOException {
    byte[] data = new byte[3 * 1024 * 1024 + 12345];
    new Random(7).nextBytes(data);
    Path viaHdfs = new Path("/dfs/files/multi-hdfs.bin");
    try (FSDataOutputStream out = hdfs.create(viaHdfs, true, 4096, (short) 3, 1024 * 1024)) {
      out.write(data);
    }
    assertThat(hdfs.getFileStatus(viaHdfs).getLen()).isEqualTo(data.length);
    assertThat(hdfs.getFileBlockLocations(hdfs.getFileStatus(viaHdfs), 0, data.length)).hasSize(4);
    assertThat(read(indexfs, viaHdfs)).isEqualTo(data);
    assertThat(read(hdfs, viaHdfs)).isEqualTo(data);

    Path viaIndexFs = new Path("/dfs/files/multi-indexfs.bin");
    try (FSDataOutputStream out = indexfs.create(viaIndexFs, true, 4096, (short) 3, 1024 * 1024)) {
      out.write(data);
    }
    assertThat(read(hdfs, viaIndexFs)).isEqualTo(data);
  }

  @Test
  void anInlineFileIsReadByteForByte() throws IOException {
    Path inline = new Path("/dfs/files/inline.bin");
    byte[] data = new byte[5000];
    new Random(11).nextBytes(data);
    try (FSDataOutputStream out = indexfs.create(inline)) {
      out.write(data);
    }
    assertThat(dataObjectOf(inline)).as("inline in IndexFS").isNull();
    assertThat(read(hdfs, inline)).isEqualTo(data);
    try (FSDataInputStream in = hdfs.open(inline)) {
      byte[] part = new byte[100];
      in.readFully(4000, part);
      assertThat(part).isEqualTo(java.util.Arrays.copyOfRange(data, 4000, 4100));
    }
    // The entry is unchanged: still inline.
    assertThat(dataObjectOf(inline)).isNull();
  }

  @Test
  void listingsPageThroughLargeDirectories() throws IOException {
    Path dir = new Path("/dfs/listing");
    hdfs.mkdirs(dir);
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 2500; i++) {
      String name = String.format("f%05d", i);
      indexfs.mkdirs(new Path(dir, name));
      expected.add(name);
    }
    List<String> listed = new ArrayList<>();
    for (FileStatus st : hdfs.listStatus(dir)) {
      listed.add(st.getPath().getName());
    }
    assertThat(listed).containsExactlyElementsOf(expected);
  }

  /** Where IndexFS keeps the file's bytes: its data object, or null when they are inline. */
  static String dataObjectOf(Path p) throws IOException {
    String object = ((org.indexfs.hadoop.IndexFileSystem) indexfs).client().getFileStatus(p.toUri().getPath())
        .getDataObject();
    return object.isEmpty() ? null : object;
  }

  static byte[] read(FileSystem fs, Path p) throws IOException {
    try (FSDataInputStream in = fs.open(p)) {
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
      IOUtils.copyBytes(in, out, 4096, false);
      return out.toByteArray();
    }
  }
}
