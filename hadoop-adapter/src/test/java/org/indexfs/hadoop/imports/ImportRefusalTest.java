package org.indexfs.hadoop.imports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.server.namenode.FsImageProto.FileSummary;
import org.apache.hadoop.hdfs.server.namenode.FsImageProto.NameSystemSection;
import org.apache.hadoop.security.UserGroupInformation;
import org.indexfs.client.bulk.LocalSubtree;
import org.indexfs.common.schema.Inode;
import org.indexfs.hadoop.IndexFileSystem;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Bad input to an import: each refused with an error naming the cause, the source where it was
 * and no target left in IndexFS (nothing half-imported). And the server's side: a publish of
 * imported entries only from a superuser, refused whole when one entry is wrong.
 */
class ImportRefusalTest {
  private static File image;

  @BeforeAll
  static void namespace() throws Exception {
    ImportFixture.writeNamespace(new Path("/bad-src"));
    image = ImportFixture.saveNamespace();
  }

  private static String refused(String... args) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code = ImportMain.run(args, ImportFixture.conf(), new PrintStream(out, true), new PrintStream(out, true));
    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(code).as(text).isEqualTo(1);
    return text;
  }

  private static void nothingImported(String target) throws IOException {
    assertThat(ImportFixture.dfs().exists(new Path("/bad-src/a/b/multi-block"))).as("source in place").isTrue();
    try (IndexFileSystem fs = ImportFixture.indexFs()) {
      assertThat(fs.exists(new Path(target))).as("no target left").isFalse();
    }
  }

  private static String from() throws IOException {
    return ImportFixture.hdfsUri("/bad-src").toString();
  }

  private static File copy(String name) throws IOException {
    File f = File.createTempFile(name, ".img", image.getParentFile().getParentFile().getParentFile());
    Files.copy(image.toPath(), f.toPath(), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    return f;
  }

  private static FileSummary summary(File f) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(f, "r")) {
      return org.apache.hadoop.hdfs.server.namenode.FSImageUtil.loadSummary(raf);
    }
  }

  @Test
  void aTruncatedFsimageIsRefused() throws Exception {
    File cut = copy("truncated");
    try (RandomAccessFile raf = new RandomAccessFile(cut, "rw")) {
      raf.setLength(raf.length() / 2);
    }
    assertThat(refused("--from", from(), "--to", "/t-truncated", "--fsimage", cut.getPath()))
        .contains("is truncated or corrupt");
    nothingImported("/t-truncated");
  }

  @Test
  void aCorruptInodeSectionIsRefusedBeforeAnythingMoves() throws Exception {
    File bad = copy("corrupt");
    FileSummary.Section inodes = summary(bad).getSectionsList().stream().filter(s -> s.getName().equals("INODE"))
        .findFirst().orElseThrow();
    try (RandomAccessFile raf = new RandomAccessFile(bad, "rw")) {
      raf.seek(inodes.getOffset() + inodes.getLength() / 2);
      byte[] junk = new byte[(int) Math.min(64, inodes.getLength() / 2)];
      java.util.Arrays.fill(junk, (byte) 0xff);
      raf.write(junk);
    }
    assertThat(refused("--from", from(), "--to", "/t-corrupt", "--fsimage", bad.getPath()))
        .contains("is truncated or corrupt");
    nothingImported("/t-corrupt");
  }

  /** The summary at the end of the image rewritten with {@code edit} applied (sections stay where they are). */
  private static File withSummary(String name, java.util.function.UnaryOperator<FileSummary> edit) throws IOException {
    File f = copy(name);
    FileSummary s = summary(f);
    byte[] all = Files.readAllBytes(f.toPath());
    int oldLength = java.nio.ByteBuffer.wrap(all, all.length - 4, 4).getInt();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(all, 0, all.length - 4 - oldLength);
    ByteArrayOutputStream summary = new ByteArrayOutputStream();
    edit.apply(s).writeDelimitedTo(summary);
    summary.writeTo(out);
    out.write(java.nio.ByteBuffer.allocate(4).putInt(summary.size()).array());
    Files.write(f.toPath(), out.toByteArray());
    return f;
  }

  @Test
  void anUnsupportedLayoutVersionIsRefused() throws Exception {
    File newer = withSummary("layout", s -> s.toBuilder().setLayoutVersion(s.getLayoutVersion() - 10).build());
    assertThat(refused("--from", from(), "--to", "/t-layout", "--fsimage", newer.getPath()))
        .contains("unsupported image layout").contains("layout version");
    nothingImported("/t-layout");
  }

  @Test
  void anImageOfAnotherNameNodeIsRefused() throws Exception {
    File other = copy("other-nn");
    FileSummary.Section nsInfo = summary(other).getSectionsList().stream().filter(s -> s.getName().equals("NS_INFO"))
        .findFirst().orElseThrow();
    try (RandomAccessFile raf = new RandomAccessFile(other, "rw")) {
      byte[] b = new byte[(int) nsInfo.getLength()];
      raf.seek(nsInfo.getOffset());
      raf.readFully(b);
      NameSystemSection ns = NameSystemSection.parseDelimitedFrom(new ByteArrayInputStream(b));
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ns.toBuilder().setNamespaceId(ns.getNamespaceId() ^ 1).build().writeDelimitedTo(out);
      assertThat(out.size()).isEqualTo(b.length);
      raf.seek(nsInfo.getOffset());
      raf.write(out.toByteArray());
    }
    assertThat(refused("--from", from(), "--to", "/t-other", "--fsimage", other.getPath()))
        .contains("is of namespace").contains("import an image of the data tier's NameNode");
    nothingImported("/t-other");
  }

  @Test
  void snapshotsAreNamedAndRefusedSinceHdfsCannotMoveThem() throws Exception {
    DistributedFileSystem hdfs = ImportFixture.dfs();
    hdfs.mkdirs(new Path("/snapped-src/d"));
    hdfs.allowSnapshot(new Path("/snapped-src/d"));
    hdfs.createSnapshot(new Path("/snapped-src/d"), "before-upgrade");
    assertThat(refused("--from", ImportFixture.hdfsUri("/snapped-src").toString(), "--to", "/t-snapped"))
        .contains("/snapped-src/d/.snapshot/before-upgrade").contains("not carried").contains("-deleteSnapshot");
    assertThat(hdfs.exists(new Path("/snapped-src/d"))).isTrue();
    try (IndexFileSystem fs = ImportFixture.indexFs()) {
      assertThat(fs.exists(new Path("/t-snapped"))).isFalse();
    }
  }

  @Test
  void anUnreachableNameNodeIsRefused() throws Exception {
    assertThat(refused("--from", "hdfs://127.0.0.1:1/bad-src", "--to", "/t-unreachable")).contains("unreachable");
    nothingImported("/t-unreachable");
  }

  @Test
  void aNameNodeInSafeModeIsRefused() throws Exception {
    DistributedFileSystem hdfs = ImportFixture.dfs();
    hdfs.setSafeMode(org.apache.hadoop.fs.SafeModeAction.ENTER);
    try {
      assertThat(refused("--from", from(), "--to", "/t-safe")).contains("is in safe mode");
    } finally {
      hdfs.setSafeMode(org.apache.hadoop.fs.SafeModeAction.LEAVE);
    }
    nothingImported("/t-safe");
  }

  @Test
  void anExistingTargetIsRefused() throws Exception {
    try (IndexFileSystem fs = ImportFixture.indexFs()) {
      fs.mkdirs(new Path("/t-exists"));
      assertThat(refused("--from", from(), "--to", "/t-exists")).contains("Import target /t-exists exists");
      assertThat(fs.listStatus(new Path("/t-exists"))).isEmpty();
    }
    assertThat(ImportFixture.dfs().exists(new Path("/bad-src/a/b/multi-block"))).isTrue();
  }

  @Test
  void aFileOpenForWriteRefusesTheImportUntilItIsClosed() throws Exception {
    DistributedFileSystem hdfs = ImportFixture.dfs();
    hdfs.mkdirs(new Path("/open-src"));
    FSDataOutputStream open = hdfs.create(new Path("/open-src/being-written"));
    open.write(ImportFixture.bytes(11, 5_000));
    open.hflush();
    try {
      assertThat(refused("--from", ImportFixture.hdfsUri("/open-src").toString(), "--to", "/t-open"))
          .contains("open for write").contains("/open-src/being-written");
      assertThat(hdfs.exists(new Path("/open-src/being-written"))).isTrue();
    } finally {
      open.close();
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertThat(ImportMain.run(new String[] {"--from", ImportFixture.hdfsUri("/open-src").toString(), "--to", "/t-open"},
        ImportFixture.conf(), new PrintStream(out, true), new PrintStream(out, true))).as(out.toString()).isZero();
    try (IndexFileSystem fs = ImportFixture.indexFs()) {
      assertThat(fs.getFileStatus(new Path("/t-open/being-written")).getLen()).isEqualTo(5_000);
    }
  }

  @Test
  void onlyASuperuserPublishesImportedEntriesAndOneBadEntryRefusesTheWholePublish() throws Exception {
    try (IndexFileSystem fs = ImportFixture.indexFs()) {
      // One good directory and two files naming objects that are not imported HDFS files.
      LocalSubtree t = fs.localizeForImport(new Path("/t-whole"), new java.util.HashMap<>(Map.of(1, "alice", 2, "alicegroup")));
      Inode dir = new Inode();
      dir.type = Inode.TYPE_DIRECTORY;
      dir.permission = 0755;
      dir.ownerId = 1;
      dir.groupId = 2;
      long d = t.putImported(t.rootId(), "dir", dir);
      t.putImported(d, "missing", file("imported/none/missing", 10));
      t.putImported(d, "elsewhere", file("0/someone-elses-object", 0));
      assertThatThrownBy(() -> fs.publish(new Path("/t-whole"))).hasMessageContaining("nothing ingested")
          .hasMessageContaining("does not exist");
      fs.abandonImport(new Path("/t-whole"));
      assertThat(fs.listStatus(new Path("/t-whole"))).as("nothing of the publish landed").isEmpty();
    }
    UserGroupInformation alice = UserGroupInformation.createUserForTesting("alice", new String[] {"alicegroup"});
    try (IndexFileSystem root = ImportFixture.indexFs()) {
      root.mkdirs(new Path("/alice-home"));
      root.setOwner(new Path("/alice-home"), "alice", "alicegroup");
    }
    alice.doAs((java.security.PrivilegedExceptionAction<Void>) () -> {
      try (IndexFileSystem fs = ImportFixture.indexFs()) {
        LocalSubtree t = fs.localizeForImport(new Path("/alice-home/imp"), new java.util.HashMap<>(Map.of(1, "hdfs")));
        t.putImported(t.rootId(), "x", file("imported/none/x", 0));
        assertThatThrownBy(() -> fs.publish(new Path("/alice-home/imp"))).hasMessageContaining("Only a superuser may import");
        fs.abandonImport(new Path("/alice-home/imp"));
      }
      return null;
    });
  }

  private static Inode file(String object, long length) {
    Inode f = new Inode();
    f.type = Inode.TYPE_FILE;
    f.permission = 0644;
    f.ownerId = 1;
    f.groupId = 2;
    f.replication = 3;
    f.blockSize = 1 << 20;
    f.length = length;
    f.dataObject = object;
    return f;
  }
}
