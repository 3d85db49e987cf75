package org.indexfs.bench.replay;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * One target of a replay, from its first pre-create to its last call: the users it acts as, and
 * where it is in the trace. A replay may need more records than the trace holds (rounds long
 * enough to measure); then the trace runs again as a new copy below {@code /replay-copy-K},
 * pre-created like the first, so every copy starts from the namespace the trace expects. Only
 * replaying is timed, never pre-creating.
 */
final class TargetSession implements AutoCloseable {
  private final TraceReplay replay;
  final TraceReplay.Settings settings;
  final Identities identities;
  private final List<Precreator.Result> precreates = new ArrayList<>();
  private int copy;
  private TraceReader reader;
  private long consumedInCopy;

  TargetSession(TraceReplay replay, TraceReplay.Settings settings) throws IOException {
    this.replay = replay;
    this.settings = settings;
    Configuration conf = TraceReplay.replayConf(settings.conf());
    this.identities = new Identities(settings.uri(), conf, settings.mode(), settings.singleUser(),
        replay.plan().superusers());
  }

  String label() {
    return settings.label();
  }

  /** Where copy {@code k} (1-based) of the trace lives: the replay's prefix, below it /replay-copy-K from the second on. */
  String prefix(int k) {
    String base = replay.prefix() == null ? "" : replay.prefix().replaceAll("/+$", "");
    return k == 1 ? replay.prefix() : base + "/replay-copy-" + k;
  }

  /** Pre-create results, one per copy started. */
  List<Precreator.Result> precreates() {
    return precreates;
  }

  int copies() {
    return copy;
  }

  /** Starts the next copy of the trace: pre-creates its namespace (unless told not to) and opens it. */
  void startCopy() throws IOException {
    if (reader != null) {
      reader.close();
    }
    copy++;
    if (settings.precreate()) {
      List<PrecreatePlan.Entry> entries = replay.plan().entries();
      Precreator builder = new Precreator(identities, settings.threads());
      try (ProgressBar bar = ProgressBar.open(settings.progress(), label() + " precreate", entries.size(),
          builder::done)) {
        precreates.add(builder.build(entries, prefix(copy)));
      }
      Precreator.Result r = precreates.get(precreates.size() - 1);
      System.out.printf(java.util.Locale.ROOT, "%s: pre-created copy %d, %,d entries in %.1f s (%,d steps failed)%n",
          label(), copy, r.made(), r.seconds(), r.failed());
    } else {
      precreates.add(new Precreator.Result(0, 0, 0, Map.of()));
    }
    reader = new TraceReader(replay.files(), replay.zone(), prefix(copy));
    consumedInCopy = 0;
  }

  /**
   * Replays the next {@code records} records of the trace, starting further copies as needed
   * (their pre-create is not timed). Outcomes go to {@code log}, from ordinal 0.
   */
  Replayer.Segment replay(long records, OutcomeLog log, String phase) throws IOException {
    long usable = replay.counts().usableTotal();
    Map<Command, CommandStats> stats = new EnumMap<>(Command.class);
    List<Difference> differences = new ArrayList<>();
    double seconds = 0;
    long done = 0;
    while (done < records && usable > 0) {
      if (reader == null || consumedInCopy >= usable) {
        startCopy();
      }
      long n = Math.min(records - done, usable - consumedInCopy);
      Replayer replayer = new Replayer(identities, settings.policy(), replay.plan(), settings.threads(), settings.rate());
      Replayer.Segment s;
      try (ProgressBar bar = ProgressBar.open(settings.progress(), label() + " " + phase, n, replayer::completed)) {
        s = replayer.replay(reader, n, copy, log, (int) done);
      }
      s.stats().forEach((c, st) -> stats.computeIfAbsent(c, k -> new CommandStats()).add(st));
      differences.addAll(s.differences());
      seconds += s.seconds();
      done += s.calls();
      consumedInCopy += s.calls();
      if (s.calls() < n) {
        // The reader ran dry early: a trace file changed since the plan read it.
        throw new IOException("The trace ended " + (n - s.calls()) + " records early; did a trace file change?");
      }
    }
    return new Replayer.Segment(stats, done, seconds, differences);
  }

  @Override
  public void close() throws IOException {
    try {
      if (reader != null) {
        reader.close();
      }
    } finally {
      identities.close();
    }
  }
}
