package org.indexfs.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.InvalidPathException;
import org.apache.hadoop.fs.Path;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * What a Hadoop user sees for a name HDFS refuses: an {@link InvalidPathException} (an
 * IllegalArgumentException, as from the NameNode) for a name that is not a valid DFS filename,
 * and an IOException for a component over the fs-limits. A refused call creates nothing.
 * ("." and empty components never get here: Hadoop's Path normalises them away.)
 */
class InvalidPathNameTest {
  private FileSystem fs;

  @BeforeEach
  void setUp() throws IOException {
    fs = FileSystem.newInstance(IndexFsTestCluster.uri(), IndexFsTestCluster.conf());
  }

  @AfterEach
  void tearDown() throws IOException {
    fs.close();
  }

  @Test
  void colonInAComponentIsAnInvalidPathException() throws IOException {
    assertRefusedAsInvalid(new Path("/invalid-colon/a:b/leaf"), "/invalid-colon");
  }

  @Test
  void nulInAComponentIsAnInvalidPathException() throws IOException {
    assertRefusedAsInvalid(new Path("/invalid-nul/a\0b/leaf"), "/invalid-nul");
  }

  @Test
  void dotDotAboveTheRootIsAnInvalidPathException() throws IOException {
    Path up = new Path("/..");
    assertEquals("/..", up.toUri().getPath(), "Path kept the component");
    Set<String> before = rootNames();
    assertInvalid(() -> fs.mkdirs(up));
    assertInvalid(() -> fs.getFileStatus(up));
    assertEquals(before, rootNames());
  }

  @Test
  void overLongComponentIsAnIOExceptionAndCreatesNothing() throws IOException {
    Path longName = new Path("/invalid-long/" + "n".repeat(256) + "/leaf");
    IOException e = assertThrows(IOException.class, () -> fs.mkdirs(longName));
    assertEquals(Code.PATH_COMPONENT_TOO_LONG, ((IndexFsException) e.getCause()).code());
    assertThrows(IOException.class, () -> fs.create(longName).close());
    assertFalse(fs.exists(new Path("/invalid-long")));
  }

  private void assertRefusedAsInvalid(Path bad, String firstComponent) throws IOException {
    assertInvalid(() -> fs.mkdirs(bad));
    assertInvalid(() -> fs.create(bad).close());
    assertInvalid(() -> fs.getFileStatus(bad));
    assertInvalid(() -> fs.delete(bad, true));
    fs.mkdirs(new Path("/invalid-src"));
    assertInvalid(() -> fs.rename(new Path("/invalid-src"), bad));
    assertFalse(fs.exists(new Path(firstComponent)), firstComponent + " was created by a refused call");
  }

  private static void assertInvalid(Executable call) {
    InvalidPathException e = assertThrows(InvalidPathException.class, call);
    assertEquals(Code.INVALID_PATH, ((IndexFsException) e.getCause()).code(), "the server refused it");
    String m = e.getMessage();
    assertTrue(m.startsWith("Invalid path name /") && m.indexOf("Invalid path name", 1) < 0, "said once: " + m);
  }

  private Set<String> rootNames() throws IOException {
    return Arrays.stream(fs.listStatus(new Path("/"))).map(FileStatus::getPath).map(Path::getName)
        .collect(Collectors.toCollection(TreeSet::new));
  }
}
