package org.indexfs.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceGeneratorTest {

  private static String generate(long seed, long lines) throws IOException {
    StringWriter w = new StringWriter();
    new TraceGenerator(seed, 8, TraceGenerator.LINKEDIN_MIX).write(w, lines);
    return w.toString();
  }

  @Test
  void theSameSeedGivesTheSameTrace() throws IOException {
    assertEquals(generate(7, 2000), generate(7, 2000));
    assertNotEquals(generate(7, 2000), generate(8, 2000));
  }

  @Test
  void theDefaultMixIsTheLinkedInMixAndEveryLineIsUsable(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("trace.log.gz");
    new TraceGenerator(3, 8, TraceGenerator.LINKEDIN_MIX).write(file, 20_000);
    Map<Command.Kind, Long> kinds = new EnumMap<>(Command.Kind.class);
    PrecreatePlan plan = new PrecreatePlan();
    TraceCounts counts;
    try (TraceReader r = new TraceReader(List.of(file), ZoneOffset.UTC)) {
      r.forEachRemaining(e -> {
        kinds.merge(e.command().kind(), 1L, Long::sum);
        plan.add(e);
      });
      counts = r.counts();
    }
    assertEquals(20_000, counts.lines());
    assertThat(counts.unusableByReason()).isEmpty();
    assertThat(plan.inconsistencies()).as("the trace explains itself").isEmpty();
    assertThat(kinds.get(Command.Kind.LOOKUP) / 20_000.0).isBetween(0.82, 0.86);
    assertThat(kinds.get(Command.Kind.CREATE) / 20_000.0).isBetween(0.08, 0.10);
    assertThat(kinds.get(Command.Kind.UPDATE) / 20_000.0).isBetween(0.06, 0.08);
    assertThat(plan.entries()).as("most of what it reads existed before it").hasSizeGreaterThan(2000);
  }

  @Test
  void directorySizesAreHeavyTailed() throws IOException {
    Map<String, Integer> perDir = new HashMap<>();
    AuditLogParser parser = new AuditLogParser(ZoneOffset.UTC);
    for (String line : generate(5, 30_000).split("\n")) {
      AuditEvent e = parser.parse(line, 1).event();
      if (e.command() == Command.CREATE || e.command() == Command.OPEN || e.command() == Command.GETFILEINFO) {
        perDir.merge(PrecreatePlan.parentOf(e.src()), 1, Integer::sum);
      }
    }
    List<Integer> sizes = new ArrayList<>(perDir.values());
    sizes.sort(null);
    int median = sizes.get(sizes.size() / 2);
    int max = sizes.get(sizes.size() - 1);
    assertThat(max).as("largest vs median directory (median %d)", median).isGreaterThan(10 * median);
  }

  @Test
  void aMixNamesOnlyGeneratedCommands() {
    assertThrows(IllegalArgumentException.class, () -> TraceGenerator.parseMix("append=5"));
    assertThrows(IllegalArgumentException.class, () -> TraceGenerator.parseMix("open"));
    assertEquals(Map.of(Command.OPEN, 60.0, Command.CREATE, 40.0), TraceGenerator.parseMix("open=60, create=40"));
  }
}
