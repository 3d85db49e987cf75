package org.indexfs.bench.replay;

import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;

/** What a trace held: usable records per command, and every unusable line counted by reason. */
public final class TraceCounts {
  private final Map<Command, Long> usable = new EnumMap<>(Command.class);
  private final Map<String, Long> unusable = new TreeMap<>();
  private long lines;

  void usable(Command c) {
    lines++;
    usable.merge(c, 1L, Long::sum);
  }

  void unusable(String reason) {
    lines++;
    unusable.merge(reason, 1L, Long::sum);
  }

  public long lines() {
    return lines;
  }

  public long usableTotal() {
    return usable.values().stream().mapToLong(Long::longValue).sum();
  }

  public Map<Command, Long> usableByCommand() {
    return usable;
  }

  public Map<String, Long> unusableByReason() {
    return unusable;
  }
}
