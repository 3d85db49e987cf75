package org.indexfs.bench.replay;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * A whole replay of one trace against one target: derive the namespace the trace expects
 * ({@link PrecreatePlan}, one pass over the trace), check the target can run it
 * ({@link Preflight}), build it ({@link Precreator}), then replay ({@link Replayer}, a second
 * pass). Usable from code and tests as well as from the command line; {@link ReplayRounds} runs
 * the side-by-side comparison on the same pieces.
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
    this.prefix = prefix == null || prefix.equals("/") ? null : prefix;
  }

  List<Path> files() {
    return trace;
  }

  ZoneId zone() {
    return zone;
  }

  String prefix() {
    return prefix;
  }

  /** Phase one's analysis (reads the trace once; cached for further targets). The plan is finished. */
  public synchronized PrecreatePlan plan() throws IOException {
    if (plan == null) {
      PrecreatePlan p = new PrecreatePlan(Set.of(UserGroupInformation.getLoginUser().getShortUserName()));
      try (TraceReader reader = new TraceReader(trace, zone)) {
        reader.forEachRemaining(p::add);
        counts = reader.counts();
      }
      p.entries(); // decide what the trace left open, once, before any replay reads the plan
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

  /** Checks the target, pre-creates, and replays the whole trace once. */
  public ReplayResult run(Settings s) throws IOException {
    try (Prepared target = prepare(s)) {
      return target.replay();
    }
  }

  /**
   * Checks the target and pre-creates the namespace the trace expects, without replaying yet: a
   * caller that times only the replay (bench cluster) can change the target's conditions between.
   */
  public Prepared prepare(Settings s) throws IOException {
    plan();
    TargetSession target = new TargetSession(this, s);
    try {
      Preflight.check(List.of(target), plan);
      target.startCopy();
    } catch (IOException | RuntimeException e) {
      target.close();
      throw e;
    }
    return new Prepared(target);
  }

  /** A target checked and pre-created ({@link #prepare}), ready for one replay of the whole trace. */
  public final class Prepared implements AutoCloseable {
    private final TargetSession target;

    private Prepared(TargetSession target) {
      this.target = target;
    }

    public ReplayResult replay() throws IOException {
      long n = counts.usableTotal();
      OutcomeLog log = new OutcomeLog((int) Math.min(Integer.MAX_VALUE - 8, n));
      Replayer.Segment segment = target.replay(n, log, "replay");
      Settings s = target.settings;
      return new ReplayResult(s.label(), s.uri().toString(), segment.stats(), segment.seconds(),
          target.precreates().get(0), segment.differences());
    }

    @Override
    public void close() throws IOException {
      target.close();
    }
  }
}
