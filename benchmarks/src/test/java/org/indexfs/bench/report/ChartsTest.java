package org.indexfs.bench.report;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChartsTest {
  @Test
  void valuesSpanningOrdersOfMagnitudeRenderOnALogAxis() throws Exception {
    // A listing entry costs microseconds, a durable create milliseconds: 300x apart here.
    BenchReport r = new BenchReport("wide range");
    OpMetrics fastList = new OpMetrics("list", 100, 110_000, 4, 8, 16, 20, 30, 0);
    OpMetrics slowCreate = new OpMetrics("create", 100, 350, 16_000, 50_000, 130_000, 140_000, 150_000, 0);
    r.run(new TargetRun("A", "a://", 1, List.of(slowCreate, fastList), slowCreate));
    r.run(new TargetRun("B", "b://", 1, List.of(slowCreate, fastList), slowCreate));
    Path dir = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "charts");
    List<String> files = Charts.write(r, dir);
    for (String f : files) {
      assertTrue(Files.size(dir.resolve(f)) > 1000, f + " was rendered");
    }
  }
}
