package org.indexfs.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.indexfs.proto.Code;
import org.junit.jupiter.api.Test;

class PathNamesTest {
  private static List<String> parse(String p) throws IndexFsException {
    return PathNames.components(p, 255);
  }

  private static Code refusal(String p) {
    return assertThrows(IndexFsException.class, () -> parse(p)).code();
  }

  @Test
  void splitsAbsolutePaths() throws Exception {
    assertEquals(List.of(), parse("/"));
    assertEquals(List.of("a", "b c", "ü"), parse("/a/b c/ü"));
    assertEquals(List.of("a"), parse("/a/"));
  }

  @Test
  void refusesWhatHdfsRefuses() {
    assertEquals(Code.INVALID_PATH, refusal(""));
    assertEquals(Code.INVALID_PATH, refusal("a/b"));
    assertEquals(Code.INVALID_PATH, refusal("/a//b"));
    assertEquals(Code.INVALID_PATH, refusal("/a/../b"));
    assertEquals(Code.INVALID_PATH, refusal("/a/./b"));
    assertEquals(Code.INVALID_PATH, refusal("/a/b:c"));
    assertEquals(Code.INVALID_PATH, refusal("/a/b\0c"));
    assertEquals(Code.PATH_COMPONENT_TOO_LONG, refusal("/" + "x".repeat(256)));
  }

  /** As FSDirectory.verifyMaxComponentLength: the directory named is the one the long name is in. */
  @Test
  void aLongComponentIsReportedWithItsOwnDirectory() {
    String longName = "x".repeat(256);
    assertEquals("The maximum path component name limit of " + longName + " in directory /a is exceeded: limit=255"
        + " length=256", assertThrows(IndexFsException.class, () -> parse("/a/" + longName + "/b")).getMessage());
    assertTrue(assertThrows(IndexFsException.class, () -> parse("/" + longName)).getMessage()
        .contains(" in directory / is exceeded"));
  }

  @Test
  void componentLimitCountsUtf8Bytes() throws Exception {
    assertEquals(1, parse("/" + "x".repeat(255)).size());
    // 128 two-byte characters are 256 bytes.
    assertEquals(Code.PATH_COMPONENT_TOO_LONG, refusal("/" + "é".repeat(128)));
  }

  /** HDFS's NameNodeRpcServer.checkPathLength: 8,000 characters, 1,000 components, both inclusive. */
  @Test
  void pathLimitsAreHdfsConstants() throws Exception {
    PathNames.checkPathLength("mkdirs", "/a".repeat(1000));
    IndexFsException deep = assertThrows(IndexFsException.class, () -> PathNames.checkPathLength("mkdirs", "/a".repeat(1001)));
    assertEquals(Code.REFUSED, deep.code());
    assertEquals("mkdirs: Pathname too long.  Limit 8000 characters, 1000 levels.", deep.getMessage());
    PathNames.checkPathLength("create", "/" + "x".repeat(7999));
    assertEquals("create: Pathname too long.  Limit 8000 characters, 1000 levels.",
        assertThrows(IndexFsException.class, () -> PathNames.checkPathLength("create", "/" + "x".repeat(8000))).getMessage());
    assertEquals(0, PathNames.depth("/"));
    assertEquals(2, PathNames.depth("/a//b/"));
  }

  @Test
  void subtreeTestIsByComponentNotByPrefix() {
    assertTrue(PathNames.isSameOrBelow(List.of("a"), List.of("a", "b")));
    assertTrue(PathNames.isSameOrBelow(List.of("a"), List.of("a")));
    assertFalse(PathNames.isSameOrBelow(List.of("a"), List.of("ab")));
    assertFalse(PathNames.isSameOrBelow(List.of("a", "b"), List.of("a")));
  }

  @Test
  void inodeIdsCarryTheirSlot() {
    long id = InodeIds.of(5, 77);
    assertEquals(5, InodeIds.slot(id));
    assertEquals(77, InodeIds.sequence(id));
    assertThrows(IllegalArgumentException.class, () -> InodeIds.of(1 << 16, 1));
  }
}
