package org.indexfs.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;
import javax.imageio.ImageIO;
import org.indexfs.bench.report.BenchReport;
import org.indexfs.bench.report.TargetRun;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bin/indexfs replay} end to end: generate, pre-create, replay on IndexFS and HDFS, report. */
class ReplayCliTest {

  @Test
  void generateAloneWritesATraceFile(@TempDir Path dir) throws IOException {
    Path trace = dir.resolve("t.log.gz");
    assertNull(ReplayMain.run(ReplayOptions.parse(new String[] {"--generate", "500", "--trace-out", trace.toString(),
        "--seed", "9"})));
    try (GZIPInputStream in = new GZIPInputStream(Files.newInputStream(trace))) {
      String text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      assertEquals(500, text.lines().count());
      assertThat(text.lines()).allMatch(l -> l.matches(".* INFO FSNamesystem.audit: allowed=(true|false)\tugi=.*"));
    }
  }

  @Test
  void generatedTraceReplaysOnIndexFsAndHdfsSideBySide(@TempDir Path dir) throws IOException {
    System.setProperty("java.awt.headless", "true");
    MiniHdfs hdfs = MiniHdfs.shared();
    try (LocalCluster indexfs = ServerIdentities.with(LocalCluster.builder(dir.resolve("indexfs"))).start()) {
      Path conf = indexfs.writeClientConf(dir.resolve("conf"));
      Path out = dir.resolve("report");
      BenchReport report = ReplayMain.run(ReplayOptions.parse(new String[] {
          "--generate", "3000", "--seed", "4", "--users", "4",
          "--target", indexfs.defaultFs(), "--compare", hdfs.uri() + "/",
          "--conf", conf.toString(), "-D", "dfs.replication=1",
          "--threads", "8", "--out", out.toString(), "--no-progress",
          "--warmup", "600", "--rounds", "4", "--min-round-seconds", "0"}));

      assertNotNull(report);
      assertThat(report.runs()).extracting(TargetRun::label).containsExactly("indexfs", "hdfs");
      long measured = report.tables().get(0).rows().stream().mapToLong(r -> Long.parseLong(r.get(2).replace(",", ""))).sum();
      assertThat(measured).as("the trace after the warm-up, less its .snapshot probes").isBetween(2300L, 2400L);
      for (TargetRun run : report.runs()) {
        assertEquals(measured, run.total().count(), run.label() + ": the measured rounds, after the warm-up");
        assertEquals(0, run.total().errors(), () -> run.label() + ": every call ends as the trace says, not:\n"
            + readQuietly(out.resolve("differences.tsv")) + readQuietly(out.resolve("report.md")));
      }
      assertThat(report.facts()).containsKey("indexfs / hdfs throughput per round");
      assertThat(report.tables().get(0).rows()).extracting(r -> r.get(1))
          .containsExactly("indexfs hdfs", "hdfs indexfs", "indexfs hdfs", "hdfs indexfs");
      assertThat(Files.readAllLines(out.resolve("differences.tsv"))).as("a header, and no record differs")
          .containsExactly("copy\tline\tcommand\texpected\tindexfs\tindexfs message\thdfs\thdfs message\tnote"
              + "\taudit record");
      assertThat(Files.readString(out.resolve("report.md"))).contains("[differences.tsv](differences.tsv)");
      assertThat(report.comparison().headers()).contains("ops/s ratio", "p50 ratio", "p99 ratio");
      assertThat(Files.readString(out.resolve("report.json"))).contains("\"label\":\"indexfs\"", "\"label\":\"hdfs\"");
      assertThat(Files.readString(out.resolve("report.md"))).contains("| operation |", "![throughput.png]");
      assertThat(Files.readString(out.resolve("report.html"))).contains("<img src=\"latency-p99.png\"");
      for (String png : List.of("throughput.png", "latency-p50.png", "latency-p99.png")) {
        BufferedImage image = ImageIO.read(out.resolve(png).toFile());
        assertNotNull(image, png);
        assertThat(image.getWidth()).isEqualTo(1000);
      }
      assertThat(Files.exists(out.resolve("trace.log.gz"))).isTrue();
    }
  }

  private static String readQuietly(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return e.toString();
    }
  }

  @Test
  void badCommandLinesSayWhy() {
    assertThrows(ReplayOptions.UsageException.class, () -> ReplayOptions.parse(new String[] {"trace.log"}));
    assertThrows(ReplayOptions.UsageException.class, () -> ReplayOptions.parse(new String[] {"--compare", "hdfs://x/"}));
    assertThrows(ReplayOptions.UsageException.class,
        () -> ReplayOptions.parse(new String[] {"t", "--target", "file:///", "--impersonation", "sudo"}));
    ReplayOptions o = ReplayOptions.parse(new String[] {"a.log", "b.log.gz", "--target", "hdfs://nn:8020/",
        "--user", "etl", "--rate", "2.5", "--threads", "4"});
    assertEquals(Impersonation.SINGLE, o.mode);
    assertEquals("hdfs", o.label(0));
    assertEquals(2, o.traces.size());
  }

  @Test
  void progressLineShowsShareRateAndTimeLeft() {
    assertEquals("replay             [###############...............]  50% 500/1,000  100/s  5s left",
        ProgressBar.line("replay", 500, 1000, 5.0));
  }
}
