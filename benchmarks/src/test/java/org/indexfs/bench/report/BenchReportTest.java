package org.indexfs.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class BenchReportTest {
  private static OpMetrics op(String name, double opsPerSecond, long p50, long p99) {
    return new OpMetrics(name, 100, opsPerSecond, p50, p50, p99, p99, p99, 0);
  }

  private static BenchReport twoTargets(boolean mixed) {
    return new BenchReport("t").mixed(mixed)
        .run(new TargetRun("a", "a://", 1, List.of(op("open", 300, 10, 40)), op("all", 400, 10, 50)))
        .run(new TargetRun("b", "b://", 1, List.of(op("open", 100, 20, 20)), op("all", 200, 40, 100)));
  }

  @Test
  void twoTargetsAreComparedWithFirstOverSecondRatios() {
    Table t = twoTargets(false).comparison();
    assertEquals(List.of("operation", "a ops/s", "a p50 µs", "a p99 µs", "b ops/s", "b p50 µs", "b p99 µs",
        "ops/s ratio", "p50 ratio", "p99 ratio"), t.headers());
    assertEquals(List.of("open", "300", "10", "40", "100", "20", "20", "3.00", "0.50", "2.00"), t.rows().get(0));
    assertEquals(List.of("all", "400", "10", "50", "200", "40", "100", "2.00", "0.25", "0.50"), t.rows().get(1));
  }

  @Test
  void inAMixedRunOnlyTheTotalThroughputIsCompared() {
    Table t = twoTargets(true).comparison();
    assertEquals("-", t.rows().get(0).get(7));
    assertEquals("2.00", t.rows().get(1).get(7));
    assertThat(t.title()).contains("share of the total");
  }

  @Test
  void jsonEscapesStringsAndKeepsEveryNumber() {
    BenchReport r = twoTargets(false).fact("trace", "C:\\logs\t\"audit\"\n");
    String json = ReportWriter.json(r);
    assertThat(json).contains("\"trace\":\"C:\\\\logs\\t\\\"audit\\\"\\n\"");
    assertThat(json).contains("\"op\":\"open\",\"count\":100,\"opsPerSecond\":300.000,\"latencyMicros\":{\"p50\":10,");
  }

  @Test
  void tablesRenderAsAlignedTextMarkdownAndEscapedHtml() {
    Table t = new Table("T", List.of("name", "n"), List.of(List.of("a|b<c>", "1,234")));
    assertEquals("T\nname        n\n------  -----\na|b<c>  1,234\n", t.toText());
    assertThat(t.toMarkdown()).contains("| a\\|b<c> | 1,234 |", "|---|---:|");
    assertThat(t.toHtml()).contains("<td>a|b&lt;c&gt;</td><td class=\"n\">1,234</td>");
  }
}
