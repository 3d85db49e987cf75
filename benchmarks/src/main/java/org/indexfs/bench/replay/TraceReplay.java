package org.indexfs.bench.replay;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * A whole replay of one trace against one target: derive the namespace the trace expects
 * ({@link PrecreatePlan}, one pass over the trace), build it ({@link Precreator}), then replay
 * ({@link Replayer}, a second pass). Usable from code and tests as well as from the command line.
 */
public final class TraceReplay {
  private final List<Path> trace;
  private final ZoneId zone;
  private final String prefix;
  private TraceCounts counts;
  private PrecreatePlan plan;

  public TraceReplay(List<Path> trace, ZoneId zone) {
    this(trace, zone, null);
  }

  /** A replay of {@code trace} with every path moved below {@code prefix} (null: as written). */
  public TraceReplay(List<Path> trace, ZoneId zone, String prefix) {
    this.trace = List.copyOf(trace);
    this.zone = zone;
    this.prefix = prefix;
  }

  /** Phase one's analysis (reads the trace once; cached for further targets). */
  public PrecreatePlan plan() throws IOException {
    if (plan == null) {
      PrecreatePlan p = new PrecreatePlan();
      try (TraceReader reader = new TraceReader(trace, zone, prefix)) {
        reader.forEachRemaining(p::add);
        counts = reader.counts();
      }
      plan = p;
    }
    return plan;
  }

  /** What the trace held, line by line (after {@link #plan()}). */
  public TraceCounts counts() throws IOException {
    plan();
    return counts;
  }

  /** A Hadoop configuration for replays: umask 000, so the modes the trace shows are set exactly. */
  public static Configuration replayConf(Configuration base) {
    Configuration conf = new Configuration(base);
    conf.set("fs.permissions.umask-mode", "000");
    return conf;
  }

  /** Settings for one target run. */
  public record Settings(String label, URI uri, Configuration conf, int threads, double rate,
      Impersonation mode, String singleUser, boolean precreate, ReplayPolicy policy, boolean progress) {

    public static Settings of(String label, URI uri, Configuration conf, int threads) {
      return new Settings(label, uri, conf, threads, 0, Impersonation.PROXY, null, true, ReplayPolicy.DEFAULT, false);
    }

    public Settings withPolicy(ReplayPolicy p) {
      return new Settings(label, uri, conf, threads, rate, mode, singleUser, precreate, p, progress);
    }
  }

  /** Runs both phases against one target. */
  public ReplayResult run(Settings s) throws IOException {
    PrecreatePlan p = plan();
    Configuration conf = replayConf(s.conf());
    try (Identities identities = new Identities(s.uri(), conf, s.mode(), s.singleUser())) {
      long precreated = 0;
      double precreateSeconds = 0;
      if (s.precreate()) {
        List<PrecreatePlan.Entry> entries = p.entries();
        Precreator builder = new Precreator(identities, s.threads());
        long t0 = System.nanoTime();
        try (ProgressBar bar = ProgressBar.open(s.progress(), s.label() + " precreate", entries.size(), builder::done)) {
          builder.build(entries);
        }
        precreateSeconds = (System.nanoTime() - t0) / 1e9;
        precreated = entries.size();
      }
      Replayer replayer = new Replayer(identities, s.policy(), s.threads(), s.rate());
      long t0 = System.nanoTime();
      Map<Command, CommandStats> stats;
      try (TraceReader reader = new TraceReader(trace, zone, prefix);
          ProgressBar bar = ProgressBar.open(s.progress(), s.label() + " replay", counts.usableTotal(),
              replayer::completed)) {
        stats = replayer.replay(reader);
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      return new ReplayResult(s.label(), s.uri().toString(), stats, seconds, precreated, precreateSeconds);
    }
  }
}
