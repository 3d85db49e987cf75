package org.indexfs.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
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
    new TraceGenerator(seed, 8, TraceGenerator.DEFAULT_MIX).write(w, lines);
    return w.toString();
  }

  @Test
  void theSameSeedGivesTheSameTrace() throws IOException {
    assertEquals(generate(7, 2000), generate(7, 2000));
    assertNotEquals(generate(7, 2000), generate(8, 2000));
  }

  @Test
  void theLinkedInMixIsKeptAndEveryLineIsUsable(@TempDir Path dir) throws IOException {
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
  void theDefaultMixAddsPutsSnapshotProbesAndRefusalsThePlanFullyExplains() throws IOException {
    List<AuditEvent> events = new ArrayList<>();
    TraceCounts counts;
    PrecreatePlan plan = new PrecreatePlan();
    Path file = Files.createTempFile("trace", ".log");
    try {
      Files.writeString(file, generate(11, 30_000));
      try (TraceReader r = new TraceReader(List.of(file), ZoneOffset.UTC)) {
        r.forEachRemaining(e -> {
          events.add(e);
          plan.add(e);
        });
        counts = r.counts();
      }
    } finally {
      Files.delete(file);
    }
    // hadoop fs -put: create NAME._COPYING_ then rename it onto NAME, after a getfileinfo of NAME.
    List<AuditEvent> renames = events.stream().filter(e -> e.command() == Command.RENAME
        && e.src().endsWith("._COPYING_")).toList();
    assertThat(renames).hasSizeGreaterThan(50).anyMatch(e -> e.dst().endsWith("/_SUCCESS"));
    assertThat(counts.unusableByReason()).containsOnlyKeys("reserved name: .snapshot (snapshot paths are not replayed)");
    assertThat(counts.unusableByReason().values().iterator().next()).isGreaterThan(50);
    assertThat(events).filteredOn(e -> !e.allowed()).extracting(AuditEvent::command).contains(Command.GETFILEINFO,
        Command.LIST_STATUS, Command.OPEN, Command.MKDIRS, Command.SET_PERMISSION, Command.DELETE);
    // Every probe of a put's destination finds nothing; every refusal is reproduced.
    for (AuditEvent r : renames) {
      AuditEvent probe = events.stream().filter(e -> e.command() == Command.GETFILEINFO && e.src().equals(r.dst())
          && e.line() < r.line()).reduce((a, b) -> b).orElseThrow();
      assertEquals(Expectation.NOT_FOUND, plan.expected(probe), probe.raw());
    }
    assertThat(plan.inconsistencies()).isEmpty();
    assertThat(plan.inferences()).doesNotContainKeys(plan.inferences().keySet().stream()
        .filter(k -> k.startsWith("refusals not reproducible")).toArray(String[]::new));
    assertThat(plan.inferences().get("refusals reproduced by pre-created owners and modes")).isGreaterThan(50);
  }

  @Test
  void directorySizesAreHeavyTailed() throws IOException {
    Map<String, Integer> perDir = new HashMap<>();
    AuditLogParser parser = new AuditLogParser(ZoneOffset.UTC);
    for (String line : generate(5, 30_000).split("\n")) {
      AuditEvent e = parser.parse(line, 1).event(); // null for the .snapshot probes
      if (e != null && (e.command() == Command.CREATE || e.command() == Command.OPEN || e.command() == Command.GETFILEINFO)) {
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
  void aMixNamesOnlyGeneratedCommandsAndPatterns() {
    assertThrows(IllegalArgumentException.class, () -> TraceGenerator.parseMix("append=5"));
    assertThrows(IllegalArgumentException.class, () -> TraceGenerator.parseMix("open"));
    assertEquals(Map.of("open", 60.0, "create", 40.0, "put", 1.0), TraceGenerator.parseMix("open=60, create=40,put=1"));
  }
}
