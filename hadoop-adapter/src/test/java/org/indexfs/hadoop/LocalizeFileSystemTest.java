package org.indexfs.hadoop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileNotFoundException;
import java.util.Arrays;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IOUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Bulk insertion through the Hadoop surface, on a cluster whose data tier is a MiniDFSCluster:
 * {@code localize}/{@code publish}, small files inline and a large one as a data object on HDFS
 * under its reserved name, and {@code indexfs.client.localize.patterns} for unmodified code.
 */
class LocalizeFileSystemTest {
  private static IndexFileSystem fs;
  private static IndexFileSystem reader;

  @BeforeAll
  static void start() throws Exception {
    IndexFsTestCluster.get();
    Configuration conf = IndexFsTestCluster.conf();
    conf.set("indexfs.client.localize.patterns", "/checkpoints/*");
    fs = (IndexFileSystem) FileSystem.newInstance(IndexFsTestCluster.uri(), conf);
    reader = (IndexFileSystem) FileSystem.newInstance(IndexFsTestCluster.uri(), IndexFsTestCluster.conf());
  }

  @AfterAll
  static void stop() throws Exception {
    fs.close();
    reader.close();
  }

  static Set<String> names(FileSystem f, Path dir) throws Exception {
    return Arrays.stream(f.listStatus(dir)).map(s -> s.getPath().getName()).collect(Collectors.toSet());
  }

  @Test
  void aLocalizedTreeWithSmallAndLargeFilesAppearsWhenPublished() throws Exception {
    Path root = new Path("/bulk-fs");
    fs.localize(root, false);
    byte[] small = "small bytes".getBytes();
    byte[] large = new byte[300 * 1024];
    new Random(13).nextBytes(large);
    try (FSDataOutputStream out = fs.create(new Path(root, "a/small"))) {
      out.write(small);
    }
    try (FSDataOutputStream out = fs.create(new Path(root, "a/large"))) {
      out.write(large);
    }
    assertTrue(fs.mkdirs(new Path(root, "b")));
    assertTrue(fs.rename(new Path(root, "a/small"), new Path(root, "b")));
    assertEquals(small.length, fs.getFileStatus(new Path(root, "b/small")).getLen());
    assertEquals(Set.of("a", "b"), names(fs, root));
    try (FSDataInputStream in = fs.open(new Path(root, "a/large"))) {
      byte[] back = new byte[large.length];
      in.readFully(back);
      assertArrayEquals(large, back);
    }
    assertThrows(FileNotFoundException.class, () -> reader.getFileStatus(new Path(root, "b/small")));
    assertEquals(0, reader.listStatus(root).length);

    assertTrue(fs.publish(root).isEmpty());
    assertEquals(Set.of("a", "b"), names(reader, root));
    FileStatus big = reader.getFileStatus(new Path(root, "a/large"));
    assertEquals(large.length, big.getLen());
    String object = ((IndexFileStatus) big).dataObject();
    assertTrue(object != null, "a large file is a data object");
    // Named from the holder's secret prefix (nobody else can guess it), and once published the
    // object is the file's: its mode, not the 0600 its writer made it with (DESIGN §14).
    assertTrue(object.matches("\\d+/[0-9a-f]{32}-[0-9a-f]+"), object);
    assertEquals(big.getPermission(), IndexFsTestCluster.hdfs().fileSystem()
        .getFileStatus(TestData.objectPath(IndexFsTestCluster.get(), object)).getPermission());
    assertEquals(new org.apache.hadoop.fs.permission.FsPermission((short) 0644), big.getPermission());
    try (FSDataInputStream in = reader.open(new Path(root, "a/large"))) {
      byte[] back = new byte[large.length];
      in.readFully(back);
      assertArrayEquals(large, back);
    }
    try (FSDataInputStream in = reader.open(new Path(root, "b/small"))) {
      byte[] back = new byte[small.length];
      IOUtils.readFully(in, back, 0, back.length);
      assertArrayEquals(small, back);
    }
  }

  /**
   * A file written in a localized subtree under a directory with a storage policy has its data
   * object created with that policy, as a server-side create's object (and HDFS's first block) is.
   */
  @Test
  void objectsWrittenInALocalizedSubtreeTakeTheInheritedStoragePolicy() throws Exception {
    Path top = new Path("/bulk-policy");
    Path root = new Path(top, "job");
    fs.mkdirs(root);
    fs.setStoragePolicy(top, "ALL_SSD");
    fs.localize(root, false);
    try (FSDataOutputStream out = fs.create(new Path(root, "part/large"))) {
      out.write(new byte[300 * 1024]);
    }
    assertTrue(fs.publish(root).isEmpty());
    String object = ((IndexFileStatus) reader.getFileStatus(new Path(root, "part/large"))).dataObject();
    assertEquals("ALL_SSD", IndexFsTestCluster.hdfs().fileSystem()
        .getStoragePolicy(TestData.objectPath(IndexFsTestCluster.get(), object)).getName());
    assertEquals("ALL_SSD", reader.getStoragePolicy(new Path(root, "part/large")).getName());
  }

  @Test
  void renamingADirectoryAboveALocalizedOnePublishesItFirst() throws Exception {
    fs.localize(new Path("/above/below"), false);
    fs.create(new Path("/above/below/sub/a")).close();
    assertTrue(fs.rename(new Path("/above"), new Path("/above-moved")));
    assertTrue(reader.exists(new Path("/above-moved/below/sub/a")), "published, then moved by the server");
    assertFalse(reader.exists(new Path("/above")));
    assertEquals(java.util.List.of(), fs.localizedPaths().bulk().atOrBelow("/"), "the lease was given up");
  }

  @Test
  void deletingADirectoryAboveALocalizedOneDropsItsPendingFilesAndObjects() throws Exception {
    fs.localize(new Path("/doomed/below"), false);
    try (FSDataOutputStream out = fs.create(new Path("/doomed/below/large"))) {
      out.write(new byte[200 * 1024]);
    }
    String object = ((IndexFileStatus) fs.getFileStatus(new Path("/doomed/below/large"))).dataObject();
    assertTrue(IndexFsTestCluster.hdfs().fileSystem().exists(TestData.objectPath(IndexFsTestCluster.get(), object)));
    assertTrue(fs.delete(new Path("/doomed"), true));
    assertFalse(reader.exists(new Path("/doomed")));
    assertFalse(fs.exists(new Path("/doomed/below/large")));
    assertFalse(IndexFsTestCluster.hdfs().fileSystem().exists(TestData.objectPath(IndexFsTestCluster.get(), object)),
        "the pending file's data object went with it");
    assertEquals(java.util.List.of(), fs.localizedPaths().bulk().atOrBelow("/doomed"));
  }

  @Test
  void directoriesMatchingAPatternAreLocalizedWhenMade() throws Exception {
    Path job = new Path("/checkpoints/job-1");
    assertTrue(fs.mkdirs(job));
    for (int i = 0; i < 20; i++) {
      fs.create(new Path(job, "part-" + i)).close();
    }
    assertEquals(20, fs.listStatus(job).length);
    assertEquals(0, reader.listStatus(job).length, "others see it as of the last publish");
    assertFalse(fs.publish(job).iterator().hasNext());
    assertEquals(20, reader.listStatus(job).length);
  }
}
