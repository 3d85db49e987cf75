package org.indexfs.bench.replay;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A fair side-by-side replay: every target first replays a warm-up stretch of the trace (not
 * measured), then the rest of the trace is cut into rounds; each round's stretch is replayed by
 * every target, alternating which goes first (A B, B A, A B ...), so drift of the machine or of
 * the systems (caches, compactions, other users of the cores) falls on both sides alike. Each
 * target replays the trace in order on its own namespace, so every stretch starts from the state
 * the trace left. Rounds are long enough to matter: at least {@code minRoundSeconds} each on the
 * faster target (judged from the warm-up; the trace is repeated as further copies when one pass
 * is too short), or sized to fill {@code durationSeconds} together.
 */
final class ReplayRounds {
  /** @param warmup records (negative: a tenth of the trace, at most 50,000) */
  record Options(long warmup, int rounds, double durationSeconds, double minRoundSeconds) {}

  /** One target's replay of one stretch. */
  record Run(String label, long records, double seconds, Map<Command, CommandStats> stats, long differences) {
    double throughput() {
      return seconds > 0 ? records / seconds : 0;
    }
  }

  /** One round: the stretch's size, the order the targets ran it in, and each target's run. */
  record Round(int number, List<String> order, long records, Map<String, Run> byLabel) {}

  record Result(List<Run> warmups, List<Round> rounds, String sizing) {}

  private ReplayRounds() {}

  static Result run(List<TargetSession> targets, Options o, DifferencesFile differences, long usable)
      throws IOException {
    long warm = o.warmup() >= 0 ? o.warmup() : Math.min(usable / 10, 50_000);
    List<Run> warmups = new ArrayList<>(stretch(targets, identity(targets.size()), warm, "warm-up", differences)
        .values());
    double[] rates = new double[targets.size()];
    for (int t = 0; t < rates.length; t++) {
      rates[t] = warmups.get(t).throughput();
    }
    int rounds = Math.max(1, o.rounds());
    long left = Math.max(0, usable - warm);
    long base = Math.max(1, (left + rounds - 1) / rounds);
    List<Round> out = new ArrayList<>();
    double spent = 0;
    for (int r = 0; r < rounds; r++) {
      // An even split of the rest of the trace, to the record (so one pass needs no second copy).
      long records = Math.max(1, left * (r + 1) / rounds - left * r / rounds);
      if (o.durationSeconds() > 0) {
        double perRound = Math.max(0, o.durationSeconds() - spent) / (rounds - r);
        double secondsPerRecord = 0;
        for (double rate : rates) {
          secondsPerRecord += rate > 0 ? 1 / rate : 0;
        }
        records = secondsPerRecord > 0 ? Math.max(1, (long) (perRound / secondsPerRecord)) : base;
      } else if (o.minRoundSeconds() > 0) {
        // Long enough on the faster target, by the latest rates (the warm-up's, then the last round's).
        long enough = (long) Math.ceil(max(rates) * o.minRoundSeconds());
        records = enough > base ? enough : records;
      }
      records = Math.min(records, Integer.MAX_VALUE - 8);
      List<Integer> order = identity(targets.size());
      if (r % 2 == 1) {
        java.util.Collections.reverse(order);
      }
      Map<Integer, Run> runs = stretch(targets, order, records, "round " + (r + 1), differences);
      Map<String, Run> byLabel = new LinkedHashMap<>();
      List<String> labels = new ArrayList<>();
      for (int t : order) {
        labels.add(targets.get(t).label());
      }
      for (int t = 0; t < targets.size(); t++) {
        Run run = runs.get(t);
        byLabel.put(run.label(), run);
        spent += run.seconds();
        if (run.throughput() > 0) {
          rates[t] = run.throughput();
        }
      }
      out.add(new Round(r + 1, labels, records, byLabel));
    }
    return new Result(warmups, out, sizing(out, o, targets));
  }

  /** How the rounds were sized, in words: their records and why, and whether the trace ran more than once. */
  private static String sizing(List<Round> rounds, Options o, List<TargetSession> targets) {
    long min = rounds.stream().mapToLong(Round::records).min().orElse(0);
    long max = rounds.stream().mapToLong(Round::records).max().orElse(0);
    String size = min == max ? String.format(Locale.ROOT, "%,d", min) : String.format(Locale.ROOT, "%,d to %,d", min, max);
    int copies = targets.stream().mapToInt(TargetSession::copies).max().orElse(1);
    String why = o.durationSeconds() > 0
        ? String.format(Locale.ROOT, "sized from the latest rates to take about %.0f s together (--duration)",
            o.durationSeconds())
        : o.minRoundSeconds() > 0
            ? String.format(Locale.ROOT, "each at least %.0f s on the faster target by the latest rates, else an even "
                + "share of the trace", o.minRoundSeconds())
            : "an even share of the trace";
    String repeat = copies > 1
        ? String.format(Locale.ROOT, "; the trace ran %d times (copies 2 to %d below /replay-copy-K)", copies, copies)
        : "; the trace once";
    return String.format(Locale.ROOT, "%d rounds of %s records, %s%s", rounds.size(), size, why, repeat);
  }

  /** Every target replays the next {@code records} records, in {@code order}; results by target index. */
  private static Map<Integer, Run> stretch(List<TargetSession> targets, List<Integer> order, long records,
      String phase, DifferencesFile differences) throws IOException {
    Map<Integer, Run> runs = new java.util.TreeMap<>();
    Replayer.Segment[] segments = new Replayer.Segment[targets.size()];
    OutcomeLog[] logs = new OutcomeLog[targets.size()];
    for (int t : order) {
      TargetSession target = targets.get(t);
      logs[t] = new OutcomeLog((int) records);
      Replayer.Segment s = target.replay(records, logs[t], phase);
      segments[t] = s;
      System.out.printf(Locale.ROOT, "%s %s: %,d records in %.1f s (%,.0f calls/s), %,d differ%n", target.label(),
          phase, s.calls(), s.seconds(), s.seconds() > 0 ? s.calls() / s.seconds() : 0, s.differences().size());
      runs.put(t, new Run(target.label(), segments[t].calls(), segments[t].seconds(), segments[t].stats(),
          segments[t].differences().size()));
    }
    differences.add(List.of(segments), List.of(logs));
    return runs;
  }

  private static List<Integer> identity(int n) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(i);
    }
    return out;
  }

  private static double max(double[] values) {
    double m = 0;
    for (double v : values) {
      m = Math.max(m, v);
    }
    return m;
  }
}
