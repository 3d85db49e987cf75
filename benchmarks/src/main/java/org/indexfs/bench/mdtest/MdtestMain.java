package org.indexfs.bench.mdtest;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.security.PrivilegedExceptionAction;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.UserGroupInformation;
import org.indexfs.bench.mdtest.MdtestWorkload.Phase;
import org.indexfs.bench.mdtest.MdtestWorkload.PhaseResult;

/**
 * {@code bin/indexfs bench mdtest}: one mdtest phase against any Hadoop file system, from this
 * process as a client only — so a profiler, {@code strace} or {@code /proc} can look at the server
 * process alone while it runs ({@code bin/profile-calls} does). Run {@code create} first; the other
 * phases use the files it left.
 */
public final class MdtestMain {
  public static final String USAGE = """
      Usage: indexfs bench mdtest --target URI --phases create,stat,list,delete [--user U] [--threads T]
                                  [--files N] [--depth D] [--shared] [--root PATH] [--warm-up] [--pause]
        --warm-up   first runs every phase unmeasured under PATH-warm-up (JIT, caches)
        --pause     before each measured phase prints "PHASE <name>" and waits for a line on stdin
                    (so a profiler of the server can start exactly then)
        Prints per phase: operations, seconds, ops/s, p50/p99 µs, client CPU µs per operation.
        Hadoop settings come from the classpath's core-site.xml and -Dkey=value system properties.
      """;

  private MdtestMain() {}

  public static void main(String[] args) throws Exception {
    URI target = null;
    List<Phase> phases = new ArrayList<>();
    String user = null;
    int threads = 16;
    int files = 1000;
    int depth = 3;
    boolean shared = false;
    String root = "/bench/mdtest";
    boolean warmUp = false;
    boolean pause = false;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--target" -> target = URI.create(args[++i]);
        case "--phase", "--phases" -> {
          for (String p : args[++i].split(",")) {
            phases.add(Phase.valueOf(p.trim().toUpperCase(Locale.ROOT)));
          }
        }
        case "--user" -> user = args[++i];
        case "--threads" -> threads = Integer.parseInt(args[++i]);
        case "--files" -> files = Integer.parseInt(args[++i]);
        case "--depth" -> depth = Integer.parseInt(args[++i]);
        case "--shared" -> shared = true;
        case "--root" -> root = args[++i];
        case "--warm-up" -> warmUp = true;
        case "--pause" -> pause = true;
        default -> throw new IllegalArgumentException("Unknown argument " + args[i] + "\n" + USAGE);
      }
    }
    if (target == null || phases.isEmpty()) {
      throw new IllegalArgumentException(USAGE);
    }
    Configuration conf = new Configuration();
    System.getProperties().forEach((k, v) -> {
      if (k.toString().startsWith("indexfs.") || k.toString().startsWith("fs.") || k.toString().startsWith("dfs.")) {
        conf.set(k.toString(), v.toString());
      }
    });
    URI uri = target;
    UserGroupInformation ugi = user == null ? UserGroupInformation.getCurrentUser()
        : UserGroupInformation.createRemoteUser(user);
    MdtestWorkload.Settings settings = new MdtestWorkload.Settings(threads, files, shared, depth);
    Path rootPath = new Path(root);
    boolean warm = warmUp;
    boolean waitForGo = pause;
    long errors = ugi.doAs((PrivilegedExceptionAction<Long>) () -> {
      long failed = 0;
      BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      try (FileSystem fs = FileSystem.newInstance(uri, conf)) {
        if (warm) {
          new MdtestWorkload(fs, new Path(rootPath + "-warm-up"), settings, new AtomicLong()).runAll();
        }
        MdtestWorkload w = new MdtestWorkload(fs, rootPath, settings, new AtomicLong());
        for (Phase phase : phases) {
          if (phase == Phase.CREATE) {
            w.prepare();
          }
          String name = phase.name().toLowerCase(Locale.ROOT);
          if (waitForGo) {
            System.out.println("PHASE " + name);
            System.out.flush();
            stdin.readLine();
          }
          PhaseResult r = w.run(phase);
          System.out.printf(Locale.ROOT, "%s operations=%d seconds=%.3f ops/s=%.0f p50=%d p99=%d clientCpuUsPerOp=%.1f"
                  + " errors=%d%n", name, r.operations(), r.seconds(), r.opsPerSecond(),
              r.micros().getValueAtPercentile(50), r.micros().getValueAtPercentile(99),
              r.clientCpuNanos() / 1000.0 / Math.max(1, r.operations()), r.errors());
          System.out.flush();
          failed += r.errors();
        }
      }
      return failed;
    });
    System.exit(errors == 0 ? 0 : 1);
  }
}
