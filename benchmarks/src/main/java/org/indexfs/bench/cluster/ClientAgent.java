package org.indexfs.bench.cluster;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.time.ZoneId;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.security.UserGroupInformation;
import org.indexfs.bench.mdtest.MdtestWorkload;
import org.indexfs.bench.replay.CommandStats;
import org.indexfs.bench.replay.Impersonation;
import org.indexfs.bench.replay.ReplayResult;
import org.indexfs.bench.replay.TraceReplay;

/**
 * The program of a client host: runs the bench's workloads — mdtest phases
 * ({@link MdtestWorkload}) and trace replays ({@link TraceReplay}) — against the systems it is
 * told about, one command per line on standard input, one {@code @@ <id> …} reply per command on
 * standard output (latencies as an encoded HdrHistogram, so the bench merges every host's). Its
 * file systems stay open between commands: the clients' caches and connections stay warm, as a
 * job's would.
 *
 * <pre>
 *   open ID name=T uri=URI [c.KEY=VALUE ...]
 *   mdtest-prepare ID t=T root=PATH threads=N files=N shared=BOOL depth=N client=I clients=C
 *   mdtest-phase ID t=T root=PATH phase=create|stat|list|delete
 *   trace-prepare ID t=T trace=FILE prefix=PATH threads=N zone=ZONE
 *   trace-run ID t=T
 *   quit
 * </pre>
 */
public final class ClientAgent {
  private final Map<String, FileSystem> systems = new HashMap<>();
  private final Map<String, Configuration> confs = new HashMap<>();
  private final Map<String, MdtestWorkload> workloads = new HashMap<>();
  private final Map<String, TraceReplay.Prepared> traces = new HashMap<>();

  private ClientAgent() {}

  public static void main(String[] args) throws Exception {
    System.setProperty("java.awt.headless", "true");
    new ClientAgent().serve();
    System.exit(0);
  }

  private void serve() throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    reply("-", "ready");
    String line;
    while ((line = in.readLine()) != null) {
      String[] words = line.trim().split("\\s+");
      if (words.length < 2) {
        if (words[0].equals("quit")) {
          break;
        }
        continue;
      }
      String id = words[1];
      Map<String, String> a = new LinkedHashMap<>();
      for (int i = 2; i < words.length; i++) {
        int eq = words[i].indexOf('=');
        a.put(words[i].substring(0, eq), words[i].substring(eq + 1));
      }
      try {
        reply(id, "ok " + execute(words[0], a));
      } catch (Exception | Error e) {
        e.printStackTrace();
        reply(id, "error " + String.valueOf(e).replace('\n', ' '));
      }
    }
    for (FileSystem fs : systems.values()) {
      fs.close();
    }
  }

  private static void reply(String id, String text) {
    System.out.println(HostProgram.REPLY + id + " " + text);
    System.out.flush();
  }

  private String execute(String command, Map<String, String> a) throws Exception {
    return switch (command) {
      case "open" -> open(a);
      case "mdtest-prepare" -> {
        MdtestWorkload.Settings s = new MdtestWorkload.Settings(Integer.parseInt(a.get("threads")),
            Integer.parseInt(a.get("files")), Boolean.parseBoolean(a.get("shared")), Integer.parseInt(a.get("depth")),
            Integer.parseInt(a.get("client")), Integer.parseInt(a.get("clients")));
        MdtestWorkload w = new MdtestWorkload(system(a), new org.apache.hadoop.fs.Path(a.get("root")), s,
            new AtomicLong());
        w.prepare();
        workloads.put(a.get("t") + a.get("root"), w);
        yield "";
      }
      case "mdtest-phase" -> {
        long calls = hadoopCalls();
        MdtestWorkload w = workloads.get(a.get("t") + a.get("root"));
        if (w == null) {
          throw new IllegalArgumentException("No mdtest prepared at " + a.get("root") + " on " + a.get("t"));
        }
        MdtestWorkload.Phase phase = MdtestWorkload.Phase.valueOf(a.get("phase").toUpperCase(Locale.ROOT));
        MdtestWorkload.PhaseResult r = w.run(phase);
        if (phase == MdtestWorkload.Phase.DELETE) {
          workloads.remove(a.get("t") + a.get("root"));
        }
        yield result(r.operations(), r.seconds(), r.errors(), r.micros(), hadoopCalls() - calls);
      }
      case "trace-prepare" -> {
        Configuration conf = confs.get(a.get("t"));
        TraceReplay replay = new TraceReplay(List.of(Path.of(a.get("trace"))), ZoneId.of(a.get("zone")),
            a.get("prefix"));
        TraceReplay.Settings s = new TraceReplay.Settings(a.get("t"), FileSystem.getDefaultUri(conf), conf,
            Integer.parseInt(a.get("threads")), 0, Impersonation.REMOTE, null, true,
            org.indexfs.bench.replay.ReplayPolicy.DEFAULT, false);
        traces.put(a.get("t"), replay.prepare(s));
        yield "";
      }
      case "trace-run" -> {
        TraceReplay.Prepared prepared = traces.remove(a.get("t"));
        if (prepared == null) {
          throw new IllegalArgumentException("No trace prepared on " + a.get("t"));
        }
        try (TraceReplay.Prepared p = prepared) {
          long calls = hadoopCalls();
          ReplayResult r = p.replay();
          calls = hadoopCalls() - calls;
          Histogram all = new Histogram(3_600_000_000L, 3);
          for (CommandStats c : r.byCommand().values()) {
            all.add(c.latencyMicros());
          }
          yield result(r.calls(), r.seconds(), r.unexpected(), all, calls);
        }
      }
      default -> throw new IllegalArgumentException("Unknown command " + command);
    };
  }

  private String open(Map<String, String> a) throws Exception {
    Configuration conf = new Configuration();
    a.forEach((k, v) -> {
      if (k.startsWith("c.")) {
        conf.set(k.substring(2), v);
      }
    });
    URI uri = URI.create(a.get("uri"));
    conf.set("fs.defaultFS", uri.toString());
    UserGroupInformation user = UserGroupInformation.createRemoteUser(ClusterSettings.USER);
    FileSystem fs = user.doAs((PrivilegedExceptionAction<FileSystem>) () -> FileSystem.newInstance(uri, conf));
    systems.put(a.get("name"), fs);
    confs.put(a.get("name"), conf);
    return "";
  }

  private FileSystem system(Map<String, String> a) {
    FileSystem fs = systems.get(a.get("t"));
    if (fs == null) {
      throw new IllegalArgumentException("No system " + a.get("t") + " opened");
    }
    return fs;
  }

  private static java.lang.reflect.Field callIds;

  /**
   * Hadoop RPCs this process has sent so far (every call of Hadoop's IPC client takes the next id
   * of one process-wide counter): the NameNode's RPCs per operation, counted at the client. -1
   * where the counter is not there (another Hadoop).
   */
  static synchronized long hadoopCalls() {
    try {
      if (callIds == null) {
        callIds = org.apache.hadoop.ipc.Client.class.getDeclaredField("callIdCounter");
        callIds.setAccessible(true);
      }
      return ((java.util.concurrent.atomic.AtomicInteger) callIds.get(null)).get() & 0x7fffffffL;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return -1;
    }
  }

  private static String result(long ops, double seconds, long errors, Histogram micros, long hadoopCalls) {
    ByteBuffer buf = ByteBuffer.allocate(micros.getNeededByteBufferCapacity());
    int n = micros.encodeIntoCompressedByteBuffer(buf);
    String hist = Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buf.array(), n));
    return String.format(Locale.ROOT, "ops=%d seconds=%.6f errors=%d hrpc=%d hist=%s", ops, seconds, errors,
        hadoopCalls < 0 ? -1 : hadoopCalls, hist);
  }
}
