package org.indexfs.hadoop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.util.Arrays;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * truncate and concat with HDFS's semantics: inline files are cut and joined in the metadata
 * tier; object files go through HDFS's own truncate (with block recovery off a block boundary) and
 * concat (blocks move, bytes are not copied). Concat turns inline parts into objects when the
 * result outgrows the inline limit.
 */
class TruncateAndConcatTest {
  private static final int MIB = 1 << 20;

  private static LocalCluster cluster;
  private static IndexFileSystem fs;
  private static DistributedFileSystem hdfs;

  @BeforeAll
  static void start() throws Exception {
    cluster = IndexFsTestCluster.get();
    fs = (IndexFileSystem) FileSystem.newInstance(IndexFsTestCluster.uri(), IndexFsTestCluster.conf());
    hdfs = IndexFsTestCluster.hdfs().fileSystem();
  }

  @AfterAll
  static void stop() throws Exception {
    fs.close();
  }

  private static void write(Path file, byte[] data, long blockSize) throws Exception {
    try (FSDataOutputStream out = fs.create(file, true, 4096, (short) 3, blockSize)) {
      out.write(data);
    }
  }

  private static byte[] read(Path file) throws Exception {
    try (FSDataInputStream in = fs.open(file)) {
      return in.readAllBytes();
    }
  }

  private static String objectOf(Path file) throws Exception {
    return ((IndexFileStatus) fs.getFileStatus(file)).dataObject();
  }

  @Test
  void truncateOfAnInlineFileCutsItInTheEntry() throws Exception {
    Path file = new Path("/truncate/inline");
    byte[] data = TestData.bytes(10, 1000);
    write(file, data, 128 * MIB);
    // Cut at once, but answered as HDFS answers a cut inside a block (ApiAnswersParityTest).
    assertThat(fs.truncate(file, 400)).isFalse();
    assertThat(fs.isFileClosed(file)).isTrue();
    assertThat(read(file)).isEqualTo(Arrays.copyOf(data, 400));
    assertThat(fs.truncate(file, 400)).isTrue();
    assertThat(fs.truncate(file, 0)).isTrue();
    assertThrows(HadoopIllegalArgumentException.class, () -> fs.truncate(file, 401));
    assertThrows(FileNotFoundException.class, () -> fs.truncate(new Path("/truncate/missing"), 0));
  }

  @Test
  void truncateOfAnObjectFileIsHdfsTruncateWithBlockRecoveryOffABoundary() throws Exception {
    Path file = new Path("/truncate/object");
    byte[] data = TestData.bytes(11, 5 * MIB);
    write(file, data, MIB);
    String object = objectOf(file);
    assertThat(fs.truncate(file, 2 * MIB)).as("truncate on a block boundary is immediate").isTrue();
    assertThat(hdfs.getFileStatus(TestData.objectPath(cluster, object)).getLen()).isEqualTo(2 * MIB);
    assertThat(read(file)).isEqualTo(Arrays.copyOf(data, 2 * MIB));

    int cut = MIB + MIB / 2;
    boolean immediate = fs.truncate(file, cut);
    assertThat(immediate).as("inside a block HDFS recovers the last block first").isFalse();
    DataPathAssertions.eventually(() -> fs.isFileClosed(file), "the truncated file is closed");
    assertThat(fs.getFileStatus(file).getLen()).isEqualTo(cut);
    assertThat(hdfs.getFileStatus(TestData.objectPath(cluster, object)).getLen()).isEqualTo(cut);
    assertThat(read(file)).isEqualTo(Arrays.copyOf(data, cut));
    try (FSDataOutputStream out = fs.append(file)) {
      out.write(data, cut, 100);
    }
    assertThat(read(file)).isEqualTo(Arrays.copyOf(data, cut + 100));
  }

  @Test
  void concatOfSmallInlineFilesStaysInline() throws Exception {
    Path target = new Path("/concat/small/target");
    Path source = new Path("/concat/small/source");
    write(target, TestData.bytes(12, 1000), 128 * MIB);
    write(source, TestData.bytes(13, 2000), 128 * MIB);
    fs.concat(target, new Path[] {source});
    assertThat(objectOf(target)).isNull();
    assertThat(read(target)).isEqualTo(join(TestData.bytes(12, 1000), TestData.bytes(13, 2000)));
    assertThat(fs.exists(source)).isFalse();
  }

  @Test
  void concatOfObjectFilesMovesHdfsBlocksAndRemovesTheSources() throws Exception {
    Path dir = new Path("/concat/objects");
    byte[][] parts = {TestData.bytes(14, MIB), TestData.bytes(15, 2 * MIB), TestData.bytes(16, 1024),
        TestData.bytes(17, 100_000)};
    Path target = new Path(dir, "target");
    Path[] sources = {new Path(dir, "s1"), new Path(dir, "s2-inline"), new Path(dir, "s3")};
    write(target, parts[0], MIB);
    for (int i = 0; i < sources.length; i++) {
      write(sources[i], parts[i + 1], MIB);
    }
    String targetObject = objectOf(target);
    String s1Object = objectOf(sources[0]);
    assertThat(objectOf(sources[1])).as("the middle source is inline").isNull();

    fs.concat(target, sources);

    byte[] expected = join(parts);
    assertThat(objectOf(target)).isEqualTo(targetObject);
    assertThat(fs.getFileStatus(target).getLen()).isEqualTo(expected.length);
    assertThat(hdfs.getFileStatus(TestData.objectPath(cluster, targetObject)).getLen()).isEqualTo(expected.length);
    assertThat(hdfs.exists(TestData.objectPath(cluster, s1Object))).as("HDFS concat consumed the source").isFalse();
    for (Path s : sources) {
      assertThat(fs.exists(s)).isFalse();
    }
    assertThat(read(target)).isEqualTo(expected);
    assertThat(fs.isFileClosed(target)).isTrue();
  }

  @Test
  void concatThatOutgrowsTheInlineLimitTurnsInlinePartsIntoObjects() throws Exception {
    Path target = new Path("/concat/grow/target");
    Path source = new Path("/concat/grow/source");
    write(target, TestData.bytes(18, 40_000), 128 * MIB);
    write(source, TestData.bytes(19, 40_000), 128 * MIB);
    fs.concat(target, new Path[] {source});
    String object = objectOf(target);
    assertThat(object).isNotNull();
    assertThat(hdfs.getFileStatus(TestData.objectPath(cluster, object)).getLen()).isEqualTo(80_000);
    assertThat(read(target)).isEqualTo(join(TestData.bytes(18, 40_000), TestData.bytes(19, 40_000)));
  }

  @Test
  void concatRefusesWhatHdfsRefuses() throws Exception {
    Path target = new Path("/concat/refused/target");
    Path elsewhere = new Path("/concat/refused-other/source");
    Path empty = new Path("/concat/refused/empty");
    write(target, TestData.bytes(20, 10), 128 * MIB);
    write(elsewhere, TestData.bytes(21, 10), 128 * MIB);
    write(empty, new byte[0], 128 * MIB);
    // As DFSClient.concat leaves them: RemoteExceptions naming the NameNode's refusal (ApiAnswersParityTest).
    assertRemote(HadoopIllegalArgumentException.class, () -> fs.concat(target, new Path[] {elsewhere}));
    assertRemote(HadoopIllegalArgumentException.class, () -> fs.concat(target, new Path[] {empty}));
    assertRemote(HadoopIllegalArgumentException.class, () -> fs.concat(target, new Path[] {target}));
    assertRemote(FileNotFoundException.class,
        () -> fs.concat(new Path("/concat/refused/missing"), new Path[] {empty}));
    assertThat(read(target)).isEqualTo(TestData.bytes(20, 10));
    assertThat(fs.exists(elsewhere) && fs.exists(empty)).isTrue();
  }

  private static void assertRemote(Class<?> named, org.junit.jupiter.api.function.Executable call) {
    org.apache.hadoop.ipc.RemoteException e = assertThrows(org.apache.hadoop.ipc.RemoteException.class, call);
    assertThat(e.getClassName()).isEqualTo(named.getName());
  }

  @Test
  void concatThatHdfsRefusesLeavesEveryPartAsItWas() throws Exception {
    Path dir = new Path("/concat/rollback");
    Path target = new Path(dir, "target");
    Path broken = new Path(dir, "broken");
    Path inline = new Path(dir, "inline");
    write(target, TestData.bytes(22, 200_000), MIB);
    write(broken, TestData.bytes(23, 200_000), MIB);
    write(inline, TestData.bytes(24, 1000), MIB);
    // Someone removed the source's object behind IndexFS's back: HDFS's concat fails.
    assertThat(hdfs.delete(TestData.objectPath(cluster, objectOf(broken)), false)).isTrue();
    assertThrows(java.io.IOException.class, () -> fs.concat(target, new Path[] {broken, inline}));
    assertThat(fs.isFileClosed(target) && fs.isFileClosed(broken) && fs.isFileClosed(inline)).isTrue();
    assertThat(read(target)).isEqualTo(TestData.bytes(22, 200_000));
    assertThat(read(inline)).isEqualTo(TestData.bytes(24, 1000));
    assertThat(fs.getFileStatus(broken).getLen()).isEqualTo(200_000);
    try (FSDataOutputStream out = fs.append(target)) {
      out.write(1);
    }
    assertThat(fs.getFileStatus(target).getLen()).isEqualTo(200_001);
    // Other suites list the whole shared namespace: leave no file without its object behind.
    assertThat(fs.delete(dir, true)).isTrue();
  }

  private static byte[] join(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }
}
