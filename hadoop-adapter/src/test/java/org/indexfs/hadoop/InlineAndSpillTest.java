package org.indexfs.hadoop;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.indexfs.common.ObjectNames;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Small files stay in the metadata tier; a file that outgrows {@code indexfs.inline.max-bytes}
 * (64 KiB) moves to an HDFS object in the middle of a write without the writer noticing; hflush and
 * hsync make bytes visible to new readers whichever tier holds them; append works on both.
 */
class InlineAndSpillTest {
  private static final int LIMIT = 64 * 1024;

  private static LocalCluster cluster;
  private static IndexFileSystem fs;
  private static IndexFileSystem reader;
  private static DistributedFileSystem hdfs;

  @BeforeAll
  static void start() throws Exception {
    cluster = IndexFsTestCluster.get();
    fs = (IndexFileSystem) FileSystem.newInstance(IndexFsTestCluster.uri(), IndexFsTestCluster.conf());
    reader = (IndexFileSystem) FileSystem.newInstance(IndexFsTestCluster.uri(), IndexFsTestCluster.conf());
    hdfs = IndexFsTestCluster.hdfs().fileSystem();
  }

  @AfterAll
  static void stop() throws Exception {
    reader.close();
    fs.close();
  }

  private static String objectOf(Path file) throws Exception {
    return ((IndexFileStatus) reader.getFileStatus(file)).dataObject();
  }

  private static byte[] read(Path file) throws Exception {
    try (FSDataInputStream in = reader.open(file)) {
      return in.readAllBytes();
    }
  }

  private static void write(Path file, byte[] data) throws Exception {
    try (FSDataOutputStream out = fs.create(file, true)) {
      out.write(data);
    }
  }

  @Test
  void filesUpToTheInlineLimitNeverTouchHdfs() throws Exception {
    org.apache.hadoop.fs.Path objects = TestData.objectPath(cluster, ObjectNames.slotDirectory(0));
    hdfs.mkdirs(objects);
    int before = hdfs.listStatus(objects).length;
    for (int size : new int[] {0, 1, 1000, LIMIT - 1, LIMIT}) {
      Path file = new Path("/inline/size-" + size);
      write(file, TestData.bytes(size, size));
      assertThat(objectOf(file)).as("object of a %d-byte file", size).isNull();
      assertThat(hdfs.listStatus(objects)).as("HDFS objects after a %d-byte file", size).hasSize(before);
      assertThat(read(file)).isEqualTo(TestData.bytes(size, size));
    }
    Path over = new Path("/inline/size-over");
    write(over, TestData.bytes(1, LIMIT + 1));
    assertThat(objectOf(over)).matches("0/[0-9a-f]{32}");
    assertThat(hdfs.getFileStatus(TestData.objectPath(cluster, objectOf(over))).getLen()).isEqualTo(LIMIT + 1);
  }

  @Test
  void fileSpillsToAnHdfsObjectMidWriteWithoutTheWriterNoticing() throws Exception {
    Path file = new Path("/spill/file");
    byte[] data = TestData.bytes(2, 3 * LIMIT + 123);
    try (FSDataOutputStream out = fs.create(file, true)) {
      out.write(data, 0, LIMIT - 10);
      assertThat(objectOf(file)).as("still inline").isNull();
      out.write(data, LIMIT - 10, 20);
      String object = objectOf(file);
      assertThat(object).as("spilled at the limit").isNotNull();
      assertThat(hdfs.exists(TestData.objectPath(cluster, object))).isTrue();
      out.write(data, LIMIT + 10, data.length - LIMIT - 10);
      assertThat(out.getPos()).isEqualTo(data.length);
    }
    assertThat(reader.getFileStatus(file).getLen()).isEqualTo(data.length);
    assertThat(read(file)).isEqualTo(data);
  }

  @Test
  void hflushAndHsyncOfAnInlineFileMakeItsBytesVisibleToNewReaders() throws Exception {
    Path file = new Path("/visible/inline");
    byte[] data = TestData.bytes(3, 1500);
    try (FSDataOutputStream out = fs.create(file, true)) {
      out.write(data, 0, 1000);
      assertThat(read(file)).as("before hflush").isEmpty();
      out.hflush();
      assertThat(read(file)).isEqualTo(Arrays.copyOf(data, 1000));
      assertThat(reader.getFileStatus(file).getLen()).isEqualTo(1000);
      out.write(data, 1000, 500);
      out.hsync();
      assertThat(read(file)).isEqualTo(data);
      assertThat(reader.isFileClosed(file)).isFalse();
    }
    assertThat(reader.isFileClosed(file)).isTrue();
    assertThat(read(file)).isEqualTo(data);
  }

  @Test
  void hflushedBytesStayVisibleAcrossTheSpillAndOnTheObject() throws Exception {
    Path file = new Path("/visible/spill");
    byte[] data = TestData.bytes(4, LIMIT + (1 << 20));
    try (FSDataOutputStream out = fs.create(file, true)) {
      out.write(data, 0, 60_000);
      out.hflush();
      out.write(data, 60_000, 20_000); // spills
      assertThat(objectOf(file)).isNotNull();
      // Every hflushed byte, now read from the object; the 20,000 after the hflush are not promised.
      byte[] seen = read(file);
      assertThat(seen.length).isBetween(60_000, 80_000);
      assertThat(seen).isEqualTo(Arrays.copyOf(data, seen.length));
      out.write(data, 80_000, data.length - 80_000);
      out.hflush();
      assertThat(read(file)).as("after hflush on the object").isEqualTo(data);
    }
    assertThat(read(file)).isEqualTo(data);
  }

  @Test
  void appendToAnInlineFileThatOutgrowsTheLimitSpillsToAFreshObject() throws Exception {
    Path file = new Path("/append/inline");
    byte[] first = TestData.bytes(5, 10_000);
    byte[] second = TestData.bytes(6, 100_000);
    write(file, first);
    long inode = fs.client().getFileStatus(file.toString()).getInodeId();
    try (FSDataOutputStream out = fs.append(file)) {
      assertThat(out.getPos()).isEqualTo(first.length);
      out.write(second);
    }
    String object = objectOf(file);
    assertThat(object).isNotNull().matches("0/[0-9a-f]{32}");
    assertThat(hdfs.getFileStatus(TestData.objectPath(cluster, object)).getLen())
        .isEqualTo(first.length + second.length);
    byte[] all = read(file);
    assertThat(Arrays.copyOf(all, first.length)).isEqualTo(first);
    assertThat(Arrays.copyOfRange(all, first.length, all.length)).isEqualTo(second);
  }

  @Test
  void appendToAnObjectFileAppendsToItsObject() throws Exception {
    Path file = new Path("/append/object");
    byte[] first = TestData.bytes(7, 200_000);
    byte[] second = TestData.bytes(8, 100_000);
    write(file, first);
    String object = objectOf(file);
    try (FSDataOutputStream out = fs.append(file)) {
      out.write(second);
      out.hflush();
      assertThat(read(file)).hasSize(first.length + second.length);
    }
    assertThat(objectOf(file)).isEqualTo(object);
    assertThat(hdfs.getFileStatus(TestData.objectPath(cluster, object)).getLen()).isEqualTo(300_000);
    byte[] all = read(file);
    assertThat(Arrays.copyOf(all, first.length)).isEqualTo(first);
    assertThat(Arrays.copyOfRange(all, first.length, all.length)).isEqualTo(second);
  }
}
