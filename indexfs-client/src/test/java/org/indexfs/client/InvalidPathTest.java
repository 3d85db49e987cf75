package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.FileType;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Path rules as HDFS applies them (DFSUtilClient.isValidName and the fs-limits), enforced by the
 * server whatever the client sends: a refused path is an INVALID_PATH or PATH_COMPONENT_TOO_LONG
 * error, and a refused call creates nothing, not even the parents it would have made.
 */
class InvalidPathTest {
  private static final String LONG_NAME = "x".repeat(256);

  private static LocalCluster cluster;
  private static IndexFsClient client;

  @BeforeAll
  static void startCluster() throws IOException {
    cluster = LocalCluster.builder(TestData.newDir("invalid-path")).start();
    client = TestData.client(cluster);
    client.mkdirs("/existing", 0755);
  }

  @AfterAll
  static void stopCluster() {
    if (client != null) {
      client.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "relative/dir",
      "",
      "/fresh1/../up",
      "/fresh2/..",
      "/..",
      "/fresh3/./here",
      "/fresh4/.",
      "/fresh5//empty",
      "/fresh6/nul\0char/leaf",
      "/fresh7/co:lon/leaf",
      "/fresh8:colon"})
  void invalidPathIsRefusedByEveryOperationAndCreatesNothing(String path) throws IOException {
    Set<String> before = rootNames();
    assertCode(Code.INVALID_PATH, () -> client.mkdirs(path, 0755));
    assertCode(Code.INVALID_PATH, () -> client.create(path, 0644, true, 1, 1 << 20, true));
    assertCode(Code.INVALID_PATH, () -> client.getFileStatus(path));
    assertCode(Code.INVALID_PATH, () -> client.listPage(path, 0, ByteString.EMPTY, 0));
    assertCode(Code.INVALID_PATH, () -> client.delete(path, true));
    assertCode(Code.INVALID_PATH, () -> client.renameExact("/existing", path, false));
    assertEquals(before, rootNames());
    assertEquals(FileType.DIRECTORY, client.getFileStatus("/existing").getType());
  }

  @Test
  void componentOverTheLimitIsRefusedAndCreatesNothing() throws IOException {
    Set<String> before = rootNames();
    String path = "/long1/ok/" + LONG_NAME + "/leaf";
    IndexFsException e = assertCode(Code.PATH_COMPONENT_TOO_LONG, () -> client.mkdirs(path, 0755));
    assertTrue(e.getMessage().contains("limit=255 length=256"), e.getMessage());
    assertCode(Code.PATH_COMPONENT_TOO_LONG, () -> client.create("/long2/" + LONG_NAME, 0644, true, 1, 1 << 20, true));
    assertCode(Code.PATH_COMPONENT_TOO_LONG, () -> client.renameExact("/existing", "/" + LONG_NAME, false));
    assertEquals(before, rootNames());
    assertEquals(FileType.DIRECTORY, client.getFileStatus("/existing").getType());
  }

  @Test
  void componentLimitCountsUtf8BytesNotCharacters() throws IOException {
    String twoByteChars = "\u00e9".repeat(128);   // 128 characters, 256 bytes
    assertCode(Code.PATH_COMPONENT_TOO_LONG, () -> client.mkdirs("/" + twoByteChars, 0755));
    String atLimit = "\u00e9".repeat(127) + "x";  // 255 bytes
    assertTrue(client.mkdirs("/utf8/" + atLimit, 0755));
    assertEquals(atLimit, client.getFileStatus("/utf8/" + atLimit).getName());
    assertTrue(client.mkdirs("/utf8/" + "y".repeat(255), 0755));
  }

  /** HDFS accepts a path that ends in slashes ("/a//"), and means the path without them. */
  @Test
  void trailingSlashesAreIgnoredAsInHdfs() throws IOException {
    assertTrue(client.mkdirs("/trailing/dir//", 0755));
    FileStatus status = client.getFileStatus("/trailing/dir");
    assertEquals(FileType.DIRECTORY, status.getType());
    assertEquals(status.getInodeId(), client.getFileStatus("/trailing/dir/").getInodeId());
    assertEquals(status.getInodeId(), client.getFileStatus("/trailing/dir///").getInodeId());
    assertEquals(FileType.DIRECTORY, client.getFileStatus("//").getType());
  }

  private static IndexFsException assertCode(Code expected, Executable call) {
    IndexFsException e = assertThrows(IndexFsException.class, call);
    assertEquals(expected, e.code(), e.getMessage());
    return e;
  }

  private static Set<String> rootNames() throws IOException {
    List<FileStatus> entries = client.listAll("/");
    return entries.stream().map(FileStatus::getName).collect(Collectors.toCollection(TreeSet::new));
  }
}
