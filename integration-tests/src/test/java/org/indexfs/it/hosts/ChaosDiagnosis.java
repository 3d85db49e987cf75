package org.indexfs.it.hosts;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * What a failed chaos round prints for each finding, since a CI run keeps only the test's output:
 * the path's events in the history, the faults injected around them, and the servers' warnings and
 * errors from the same seconds (every slot server's log, actives and standbys).
 */
final class ChaosDiagnosis {
  private static final DateTimeFormatter LOG_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS");
  private static final long AROUND_MS = 5_000;
  private static final int MAX_LOG_LINES = 40;

  private ChaosDiagnosis() {}

  static void print(History history, ComposeHosts cluster, List<String> paths) {
    List<History.Event> events = history.events();
    for (String path : paths) {
      List<History.Event> mine = events.stream()
          .filter(e -> e.process() >= 0 && Arrays.asList(e.args().split(" ")).contains(path)).toList();
      System.out.println("Chaos finding " + path + ": its calls —");
      mine.forEach(e -> System.out.println("  " + e));
      if (mine.isEmpty()) {
        continue;
      }
      long from = mine.get(0).timeMs() - AROUND_MS;
      long to = mine.get(mine.size() - 1).timeMs() + AROUND_MS;
      System.out.println("  faults around them:");
      events.stream().filter(e -> e.process() < 0 && e.timeMs() >= from && e.timeMs() <= to)
          .forEach(e -> System.out.println("  " + e));
      System.out.println("  servers' warnings and errors around them:");
      for (ComposeFile.Service s : cluster.services("indexfs")) {
        Path log = cluster.work.resolve(s.name() + ".log");
        if (s.isSlotServer() && Files.exists(log)) {
          printLines(s.name(), log, from, to);
        }
      }
    }
  }

  private static void printLines(String name, Path log, long from, long to) {
    try (Stream<String> lines = Files.lines(log)) {
      lines.filter(l -> (l.contains(" WARN ") || l.contains(" ERROR ")) && within(l, from, to))
          .limit(MAX_LOG_LINES).forEach(l -> System.out.println("  " + name + ": " + l));
    } catch (IOException | java.io.UncheckedIOException e) {
      System.out.println("  " + name + ": log unreadable (" + e + ")");
    }
  }

  private static boolean within(String line, long from, long to) {
    if (line.length() < 23) {
      return false;
    }
    try {
      long t = LocalDateTime.parse(line.substring(0, 23), LOG_TIME).atZone(ZoneId.systemDefault()).toInstant()
          .toEpochMilli();
      return t >= from && t <= to;
    } catch (DateTimeParseException notATimestamp) {
      return false;
    }
  }
}
