package org.indexfs.bench.replay;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** One target's replay of a whole trace: per-command stats, wall time, the pre-create, and every record that differed. */
public record ReplayResult(String label, String uri, Map<Command, CommandStats> byCommand, double seconds,
    Precreator.Result precreate, List<Difference> differences) {

  public long calls() {
    return byCommand.values().stream().mapToLong(CommandStats::count).sum();
  }

  public long unexpected() {
    return byCommand.values().stream().mapToLong(CommandStats::unexpected).sum();
  }

  public double throughput() {
    return seconds > 0 ? calls() / seconds : 0;
  }

  static Map<Command, CommandStats> merge(Iterable<Map<Command, CommandStats>> parts) {
    Map<Command, CommandStats> out = new EnumMap<>(Command.class);
    for (Map<Command, CommandStats> part : parts) {
      part.forEach((c, s) -> out.computeIfAbsent(c, k -> new CommandStats()).add(s));
    }
    return out;
  }
}
