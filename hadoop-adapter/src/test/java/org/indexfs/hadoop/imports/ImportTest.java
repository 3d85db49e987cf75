package org.indexfs.hadoop.imports;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.indexfs.hadoop.IndexFileSystem;
import org.junit.jupiter.api.Test;

/**
 * Issue 34, first slice: an HDFS directory written by real HDFS clients, holding every attribute
 * kind, imported from the live NameNode and from its fsimage: nothing copied (the files are moved
 * under the data tier's imported/ and become the entries' objects), {@code --verify} clean, every
 * file read back byte-identical through indexfs://, and the objects behaving as objects (append,
 * delete reclaiming, the scrubber leaving them alone).
 */
class ImportTest {
  private static String run(String... args) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = ImportMain.run(args, ImportFixture.conf(), new PrintStream(out, true), new PrintStream(err, true));
    String text = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
    assertThat(code).as(text).isZero();
    return text;
  }

  private static String objectsOf(String importOutput) {
    String marker = "The files now live at ";
    int at = importOutput.indexOf(marker) + marker.length();
    return importOutput.substring(at, importOutput.indexOf(' ', at));
  }

  private static byte[] read(IndexFileSystem fs, Path p) throws IOException {
    try (FSDataInputStream in = fs.open(p)) {
      return in.readAllBytes();
    }
  }

  private static void importedAndVerified(String source, String target, File fsimage, Map<String, byte[]> files)
      throws Exception {
    DistributedFileSystem hdfs = ImportFixture.dfs();
    String out = fsimage == null ? run("--from", ImportFixture.hdfsUri(source).toString(), "--to", target)
        : run("--from", ImportFixture.hdfsUri(source).toString(), "--to", target, "--fsimage", fsimage.getPath());
    String objects = objectsOf(out);
    assertThat(hdfs.exists(new Path(source))).as("the source was moved, not copied").isFalse();
    assertThat(objects).contains(ImportFixture.DATA_ROOT + "/imported/");
    String verify = run("--verify", "--from", objects, "--to", target, "--sample", "100");
    assertThat(verify).contains("RESULT    CLEAN").contains("differences 0")
        .contains(files.size() + " files sampled").contains(files.size() + " equal")
        .contains("ACLs on 2").contains("quotas on 2").contains("1 snapshottable");
    try (IndexFileSystem fs = ImportFixture.indexFs()) {
      for (Map.Entry<String, byte[]> f : files.entrySet()) {
        assertThat(read(fs, new Path(target, f.getKey()))).as(f.getKey()).isEqualTo(f.getValue());
      }
      // The multi-block file's blocks are the HDFS file's own: nothing was written anew.
      assertThat(fs.getFileBlockLocations(new Path(target, "a/b/multi-block"), 0, Long.MAX_VALUE)).hasSize(3);
    }
  }

  @Test
  void aLiveNamespaceIsImportedWithEveryAttributeAndReadsBackByteIdentical() throws Exception {
    Map<String, byte[]> files = ImportFixture.writeNamespace(new Path("/live-src"));
    importedAndVerified("/live-src", "/live-imported", null, files);
  }

  @Test
  void anFsimageIsImportedWithEveryAttributeAndReadsBackByteIdentical() throws Exception {
    Map<String, byte[]> files = ImportFixture.writeNamespace(new Path("/image-src"));
    File image = ImportFixture.saveNamespace();
    importedAndVerified("/image-src", "/image-imported", image, files);
  }

  @Test
  void importedObjectsAppendDeleteAndSurviveTheScrubber() throws Exception {
    Map<String, byte[]> files = ImportFixture.writeNamespace(new Path("/ops-src"));
    String out = run("--from", ImportFixture.hdfsUri("/ops-src").toString(), "--to", "/ops");
    Path objects = new Path(objectsOf(out));
    DistributedFileSystem hdfs = ImportFixture.dfs();
    // The scrubber lists and removes unreferenced objects: it must leave every imported one alone.
    assertThat(ImportFixture.cluster().server().scrubber().runOnce(0)).noneMatch(o -> o.startsWith("imported/"));
    for (String f : files.keySet()) {
      assertThat(hdfs.exists(new Path(objects, f))).as("scrubbed: " + f).isTrue();
    }
    try (IndexFileSystem fs = ImportFixture.indexFs()) {
      for (Map.Entry<String, byte[]> f : files.entrySet()) {
        assertThat(read(fs, new Path("/ops", f.getKey()))).as(f.getKey()).isEqualTo(f.getValue());
      }
      byte[] more = ImportFixture.bytes(9, 10_000);
      try (FSDataOutputStream a = fs.append(new Path("/ops/a/small"))) {
        a.write(more);
      }
      byte[] small = files.get("a/small");
      byte[] expected = new byte[small.length + more.length];
      System.arraycopy(small, 0, expected, 0, small.length);
      System.arraycopy(more, 0, expected, small.length, more.length);
      assertThat(read(fs, new Path("/ops/a/small"))).isEqualTo(expected);
      assertThat(hdfs.getFileStatus(new Path(objects, "a/small")).getLen()).as("appended to the HDFS file itself")
          .isEqualTo(expected.length);

      assertThat(fs.delete(new Path("/ops/a/b/multi-block"), false)).isTrue();
      Path gone = new Path(objects, "a/b/multi-block");
      long deadline = System.currentTimeMillis() + 30_000;
      while (hdfs.exists(gone) && System.currentTimeMillis() < deadline) {
        Thread.sleep(100);
      }
      assertThat(hdfs.exists(gone)).as("deleting the file reclaims its object").isFalse();
      assertThat(ImportFixture.cluster().server().scrubber().runOnce(0)).noneMatch(o -> o.startsWith("imported/"));
      assertThat(hdfs.exists(new Path(objects, "a/b/c/deep"))).isTrue();
      assertThat(read(fs, new Path("/ops/a/b/c/deep"))).isEqualTo(files.get("a/b/c/deep"));
    }
  }
}
