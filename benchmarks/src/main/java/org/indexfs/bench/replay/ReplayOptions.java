package org.indexfs.bench.replay;

import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The command line of {@code bin/indexfs replay}, parsed and checked. */
final class ReplayOptions {
  static final String USAGE = """
      Usage: indexfs replay [TRACE ...] [options]
             indexfs replay --generate N [--trace-out FILE] [options]

      Replays HDFS NameNode audit logs (plain or .gz) against any Hadoop FileSystem: checks each
      target can run it, pre-creates the namespace the trace expects (inferred from the whole
      trace), then re-issues its calls: a warm-up, then rounds that alternate the targets. Reports
      throughput, latency percentiles and outcomes against what the trace implies; every record
      that differs is written to <out>/differences.tsv.

      Trace:
        TRACE ...                 audit log files, replayed in the order given
        --generate N              generate an N-line synthetic trace (seeded) instead
        --seed S                  generator seed (default 1)
        --mix SPEC                generator mix, e.g. getfileinfo=48,open=26,...,put=0.5 (default: the
                                  LinkedIn mix plus put=0.5,snapshotProbe=0.5,refused=0.5: hadoop fs
                                  -put, HBase .snapshot probes, refused calls)
        --users U                 generator users (default 16)
        --trace-out FILE          where --generate writes (default: <out>/trace.log.gz); without
                                  --target, --generate only writes the trace
        --timezone ZONE           zone of the trace's timestamps (default: this machine's)
      Targets:
        --target URI              the system under test (indexfs://local/, hdfs://nn:8020/, file:///tmp/x)
        --compare URI             a second target replayed in the same run; the report shows both with ratios
        --label NAME / --compare-label NAME   names in the report (default: the URI scheme)
        --conf FILE               Hadoop configuration resource (repeatable); -D key=value overrides
      Replay:
        --threads T               worker threads (default 16)
        --rate R                  0: as fast as possible (default); R > 0: the trace's pace x R
        --impersonation MODE      proxy (default: createProxyUser as the login user) or remote
                                  (createRemoteUser, for simple-auth clusters without proxy settings)
        --user NAME               replay every call as NAME instead of its ugi= user
        --no-precreate            skip phase one (the target already holds the namespace)
        --prefix DIR              replay below DIR instead of / (a file:// target, a shared cluster)
        --create-bytes N, --append-bytes N, --truncate-to N, --set-replication N
                                  what audit logs do not record (defaults 0, 0, 0, 2)
      Measuring:
        --warmup N                records every target replays first, not measured
                                  (default: a tenth of the trace, at most 50,000)
        --rounds R                measured rounds (default 6); each target replays each round's
                                  stretch of the trace, the order alternating A B, B A, ...
        --min-round-seconds S     rounds last at least S s on the faster target, judged from the
                                  warm-up; the trace repeats (as copies below /replay-copy-K) if
                                  one pass is too short (default 5; 0: the trace once)
        --duration S              instead: size the rounds so they take about S s together
        --min-calls N             per-command ratios only where both targets ran at least N calls
                                  of it (per round for the spread; default 100)
      Output:
        --out DIR                 report directory (default: replay-report)
        --progress / --no-progress   progress bar on stderr (default: when stderr is a terminal)
      """;

  List<String> args = List.of();
  final List<Path> traces = new ArrayList<>();
  long generate = -1;
  long seed = 1;
  String mix = TraceGenerator.DEFAULT_MIX;
  int users = 16;
  Path traceOut;
  ZoneId zone = ZoneId.systemDefault();
  final List<String> targets = new ArrayList<>();
  final List<String> labels = new ArrayList<>(List.of("", ""));
  final List<Path> confFiles = new ArrayList<>();
  final Map<String, String> settings = new LinkedHashMap<>();
  int threads = 16;
  double rate;
  Impersonation mode = Impersonation.PROXY;
  String singleUser;
  boolean precreate = true;
  int createBytes;
  int appendBytes;
  long truncateTo;
  short replication = 2;
  long warmup = -1;
  int rounds = 6;
  double minRoundSeconds = 5;
  double duration;
  long minCalls = 100;
  Path out = Path.of("replay-report");
  boolean progress = System.console() != null;
  String prefix;

  static ReplayOptions parse(String[] args) {
    ReplayOptions o = new ReplayOptions();
    o.args = List.of(args);
    String target = null;
    String compare = null;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (!a.startsWith("-")) {
        o.traces.add(Path.of(a));
        continue;
      }
      if (a.equals("--no-precreate")) {
        o.precreate = false;
        continue;
      }
      if (a.equals("--no-progress") || a.equals("--progress")) {
        o.progress = a.equals("--progress");
        continue;
      }
      if (a.equals("-h") || a.equals("--help")) {
        throw new UsageException(null);
      }
      if (i + 1 >= args.length) {
        throw new UsageException(a + " needs a value");
      }
      String v = args[++i];
      switch (a) {
        case "--generate" -> o.generate = Long.parseLong(v.replace("_", ""));
        case "--seed" -> o.seed = Long.parseLong(v);
        case "--mix" -> o.mix = v;
        case "--users" -> o.users = Integer.parseInt(v);
        case "--trace-out" -> o.traceOut = Path.of(v);
        case "--timezone" -> o.zone = ZoneId.of(v);
        case "--target" -> target = v;
        case "--compare" -> compare = v;
        case "--label" -> o.labels.set(0, v);
        case "--compare-label" -> o.labels.set(1, v);
        case "--conf" -> o.confFiles.add(Path.of(v));
        case "-D" -> {
          int eq = v.indexOf('=');
          if (eq <= 0) {
            throw new UsageException("-D expects key=value, got " + v);
          }
          o.settings.put(v.substring(0, eq), v.substring(eq + 1));
        }
        case "--threads" -> o.threads = Integer.parseInt(v);
        case "--rate" -> o.rate = Double.parseDouble(v);
        case "--impersonation" -> o.mode = switch (v) {
          case "proxy" -> Impersonation.PROXY;
          case "remote" -> Impersonation.REMOTE;
          default -> throw new UsageException("--impersonation is proxy or remote, not " + v);
        };
        case "--user" -> {
          o.mode = Impersonation.SINGLE;
          o.singleUser = v;
        }
        case "--create-bytes" -> o.createBytes = Integer.parseInt(v);
        case "--append-bytes" -> o.appendBytes = Integer.parseInt(v);
        case "--truncate-to" -> o.truncateTo = Long.parseLong(v);
        case "--set-replication" -> o.replication = Short.parseShort(v);
        case "--warmup" -> o.warmup = Long.parseLong(v.replace("_", ""));
        case "--rounds" -> o.rounds = Integer.parseInt(v);
        case "--min-round-seconds" -> o.minRoundSeconds = Double.parseDouble(v);
        case "--duration" -> o.duration = Double.parseDouble(v);
        case "--min-calls" -> o.minCalls = Long.parseLong(v);
        case "--out" -> o.out = Path.of(v);
        case "--prefix" -> {
          if (!v.startsWith("/")) {
            throw new UsageException("--prefix must be an absolute path, not " + v);
          }
          o.prefix = v;
        }
        default -> throw new UsageException("Unknown option " + a);
      }
    }
    if (target != null) {
      o.targets.add(target);
    }
    if (compare != null) {
      if (target == null) {
        throw new UsageException("--compare needs --target");
      }
      o.targets.add(compare);
    }
    if (o.generate < 0 && o.traces.isEmpty()) {
      throw new UsageException("Give trace files or --generate N");
    }
    if (o.generate >= 0 && !o.traces.isEmpty()) {
      throw new UsageException("Give trace files or --generate N, not both");
    }
    if (o.generate < 0 && o.targets.isEmpty()) {
      throw new UsageException("--target is required to replay a trace");
    }
    if (o.threads < 1 || o.rate < 0) {
      throw new UsageException("--threads must be at least 1 and --rate at least 0");
    }
    if (o.rounds < 1 || o.duration < 0 || o.minRoundSeconds < 0 || o.minCalls < 0) {
      throw new UsageException("--rounds must be at least 1; --duration, --min-round-seconds and --min-calls at least 0");
    }
    return o;
  }

  ReplayRounds.Options measuring() {
    return new ReplayRounds.Options(warmup, rounds, duration, minRoundSeconds);
  }

  ReplayPolicy policy() {
    return new ReplayPolicy(createBytes, appendBytes, truncateTo, replication);
  }

  String label(int i) {
    String l = labels.get(i);
    if (!l.isEmpty()) {
      return l;
    }
    String scheme = java.net.URI.create(targets.get(i)).getScheme();
    return scheme == null ? "target" + (i + 1) : scheme;
  }

  /** A command line that cannot run; the message says why (null: just print the usage). */
  static final class UsageException extends IllegalArgumentException {
    UsageException(String message) {
      super(message);
    }
  }
}
