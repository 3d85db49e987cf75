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

  @Test
  void componentLimitCountsUtf8Bytes() throws Exception {
    assertEquals(1, parse("/" + "x".repeat(255)).size());
    // 128 two-byte characters are 256 bytes.
    assertEquals(Code.PATH_COMPONENT_TOO_LONG, refusal("/" + "é".repeat(128)));
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
