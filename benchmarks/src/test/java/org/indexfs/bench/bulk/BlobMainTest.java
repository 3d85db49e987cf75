package org.indexfs.bench.bulk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A short round of {@code bench blob}: every row measured, with and without BlobDB, for each size. */
class BlobMainTest {
  @Test
  void eachSizeIsMeasuredTwiceWithAndWithoutBlobFiles() throws Exception {
    PrintStream out = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      BlobMain.main(new String[] {"3000", "512,4096"});
    } finally {
      System.setOut(out);
    }
    List<String> lines = captured.toString(StandardCharsets.UTF_8).lines().toList();
    assertTrue(lines.get(0).startsWith("value"), lines.toString());
    List<String[]> rows = lines.subList(1, lines.size()).stream().map(l -> l.trim().split("\\s+")).toList();
    assertEquals(8, rows.size(), lines.toString());
    for (int i = 0; i < rows.size(); i++) {
      String[] row = rows.get(i);
      assertEquals(i < 4 ? "512" : "4096", row[0], lines.toString());
      assertEquals(i % 2 == 0 ? "0" : "256", row[2], lines.toString());
      assertEquals("3,000", row[3], lines.toString());
      for (int c = 4; c < row.length; c++) {
        if (c != 5) { // compaction bytes: none for so small a load
          assertTrue(Double.parseDouble(row[c].replace(",", "")) > 0, "column " + c + " of " + String.join(" ", row));
        }
      }
    }
  }
}
