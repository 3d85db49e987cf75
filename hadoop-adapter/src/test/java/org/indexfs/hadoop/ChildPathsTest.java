package org.indexfs.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/** A listed child's path is exactly the one {@code new Path(dir, name)} (HDFS's client) makes, whatever the name. */
class ChildPathsTest {
  private static final List<String> DIRS = List.of("indexfs://c/", "indexfs://c/a/b", "indexfs://prod/user/x y",
      "indexfs://c/p%20q/r", "indexfs://c/dt=2024-01-01", "indexfs://c/\u00e9t\u00e9/", "/no/scheme", "hdfs://nn:8020/d");

  private static List<String> names() {
    List<String> names = new ArrayList<>(List.of("file.mdtest.12.0", "part-00000", "dt=2024-01-01", "a,b+c~d@e",
        "_SUCCESS", ".hidden", "..x", "x..", "a:b", ":", "a%41", "%", "#frag", "q?x=1", "sp ace", "\u00e9t\u00e9",
        "\u65e5\u672c", "a\\b", "[x]", "{y}", "a;b", "a&b", "$x", "!", "'q'", "(p)", "*", "^", "|", "`", "\"", "<>"));
    for (char c = 0x21; c < 0x7f; c++) {
      if (c != '/') {
        names.add("n" + c + "m");
        names.add(c + "start");
        names.add("end" + c);
      }
    }
    return names;
  }

  @Test
  void everyChildPathEqualsHadoopsOwn() {
    for (String d : DIRS) {
      Path dir = new Path(d);
      ChildPaths children = new ChildPaths(dir);
      for (String name : names()) {
        String what = "'" + name + "' in " + d;
        Path expected;
        try {
          expected = new Path(dir, name);
        } catch (IllegalArgumentException refused) {
          // Hadoop refuses some names (a colon before any slash reads as a scheme): so must this.
          IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
              () -> children.of(name), what);
          assertEquals(refused.getMessage(), e.getMessage(), what);
          continue;
        }
        Path actual = children.of(name);
        assertEquals(expected, actual, what);
        assertEquals(expected.toString(), actual.toString(), what);
        assertEquals(expected.toUri().toString(), actual.toUri().toString(), what);
        assertEquals(expected.toUri().getRawPath(), actual.toUri().getRawPath(), what);
        assertEquals(expected.getName(), actual.getName(), what);
        assertEquals(expected.getParent(), actual.getParent(), what);
      }
    }
  }

  @Test
  void onlyNamesWithoutUriSyntaxTakeTheShortWay() {
    assertTrue(ChildPaths.plain("file.mdtest.12.0"));
    assertTrue(ChildPaths.plain("dt=2024-01-01"));
    for (String name : List.of("", ".", "..", "a:b", "a%41", "#f", "q?x", "sp ace", "\u00e9", "a/b")) {
      assertFalse(ChildPaths.plain(name), name);
    }
  }
}
