package org.indexfs.bench.cluster;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.indexfs.bench.mdtest.MdtestWorkload.Phase;

/** The command line of {@code bin/indexfs bench cluster}, parsed and checked. */
record ClusterOptions(List<Integer> slots, double slice, List<Integer> smallSlots, double smallSlice,
    List<Integer> nameNodeSlices, boolean fineGrained, long delayMicros, long periodMicros, int rounds,
    int warmUpRounds, int warmUpScale, int clients, int threadsPerSlice, int minThreads, int filesPerSlice, int depth,
    List<Phase> phases, List<Boolean> layouts, long traceCallsPerSlice, List<Path> traces,
    List<Integer> predictSlots, double zookeeperCapacity, boolean clientCheck, Path out, Path work,
    boolean ci, List<String> serverConf, List<String> args) {

  static final String USAGE = """
      Usage: indexfs bench cluster [--quick | --ci] [options]     (as root: network namespaces, cgroups, netem)
        An emulated cluster of small, equal machines on this one: every slot server and the NameNode
        its own process on its own host (network namespace) with a CPU slice (cgroup quota) and a
        delay on its link; ZooKeeper and the client hosts without a slice. IndexFS on N slots against
        the NameNode on one slice and on N slices, global and fine-grained lock, in alternating rounds.
        --slots LIST         IndexFS slot counts, one slice each (default 1,2,4,8)
        --slice CPUS         a slice, in CPUs (default 0.1)
        --small-slots LIST   slot counts run with the smaller slice (default 1,16; "none" for none)
        --small-slice CPUS   the smaller slice (default 0.05)
        --namenode-slices L  the NameNode's slice counts (default: --slots and --small-slots)
        --no-fgl             the NameNode with its default global lock only
        --delay D            netem delay on every host's link, each way: 100us (default), 1ms, 0
        --period-us P        CFS period of the quotas (default 10000; a quota must be at least 1 ms)
        --rounds R           measured rounds, systems alternating (default 2)
        --warm-up-rounds W   at most W unmeasured rounds first, quotas lifted, until each server's JIT has
                             settled (a round compiled under 2 % more methods; default 3)
        --warm-up-scale F    the warm-up's mdtest has F times the files (default 2: enough calls per slot
                             for the JIT's last tier; the report shows what was compiled after it)
        --clients C          client hosts (default 2)
        --threads-per-slice T  client threads per slice of the system under test (default 16, at least
                             --min-threads in all), spread over the client hosts
        --files-per-slice F  mdtest files per slice per layout (default 2000: the work grows with the
                             slices, so a shared directory splits over every slot)
        --depth D            directories above the test directories (default 3)
        --phases LIST        mdtest phases (default create,stat,list,delete)
        --layouts LIST       private,shared (default both)
        --trace-calls-per-slice N  calls of the generated LinkedIn-mix trace per slice, per run of it
                             (default 4000; each client host replays its own copy; 0: none)
        --trace FILE         also replay this audit log (each client host its own copy; repeatable)
        --predict-slots LIST slot counts the model predicts beyond the run (default 32,64,128; none)
        --zookeeper-capacity R  requests/s the model allows ZooKeeper (default 10000)
        --no-client-check    skip the re-run with twice the client threads
        --quick              slots 1,2,4, no small slice, 1 round, 500 files and 1000 trace calls per slice
        --ci                 the emulation's check: slots 1,2 against the NameNode on 1 slice (global
                             lock), the create phase in private directories, 300 files per slice, one
                             round; fails if a host is unreachable or a quota is not applied
        --out DIR            report directory (default bench-report/cluster)
        --work DIR           hosts' directories (default: a new temporary directory, removed afterwards)
        --server-conf K=V    an IndexFS server setting for every slot (repeatable; the report lists them),
                             e.g. indexfs.lease.max-ms=10000 to keep leases as long against a slice's slow
                             calls as they are against a whole machine's
      """;

  static ClusterOptions parse(String[] argv) {
    List<Integer> slots = List.of(1, 2, 4, 8);
    double slice = 0.1;
    List<Integer> smallSlots = List.of(1, 16);
    double smallSlice = 0.05;
    List<Integer> nnSlices = null;
    boolean fgl = true;
    long delay = 100;
    long period = 10_000;
    int rounds = 2;
    int warmUps = 3;
    int warmUpScale = 2;
    int clients = 2;
    int threadsPerSlice = 16;
    int minThreads = 16;
    int files = 2000;
    int depth = 3;
    List<Phase> phases = List.of(Phase.values());
    List<Boolean> layouts = List.of(false, true);
    long traceCalls = 4000;
    List<Path> traces = new ArrayList<>();
    List<String> serverConf = new ArrayList<>();
    List<Integer> predict = List.of(32, 64, 128);
    double zkCapacity = 10_000;
    boolean clientCheck = true;
    Path out = Path.of("bench-report", "cluster");
    Path work = null;
    boolean ci = false;
    for (int i = 0; i < argv.length; i++) {
      String a = argv[i];
      switch (a) {
        case "--quick" -> {
          slots = List.of(1, 2, 4);
          smallSlots = List.of();
          rounds = 1;
          files = 500;
          traceCalls = 1000;
        }
        case "--ci" -> {
          ci = true;
          slots = List.of(1, 2);
          smallSlots = List.of();
          nnSlices = List.of(1);
          fgl = false;
          rounds = 1;
          warmUps = 0; // nothing timed is judged: the JVMs need not be warm
          files = 300;
          phases = List.of(Phase.CREATE);
          layouts = List.of(false);
          traceCalls = 0;
          predict = List.of();
          clientCheck = false;
        }
        case "--slots" -> slots = ints(argv[++i]);
        case "--slice" -> slice = Double.parseDouble(argv[++i]);
        case "--small-slots" -> smallSlots = ints(argv[++i]);
        case "--small-slice" -> smallSlice = Double.parseDouble(argv[++i]);
        case "--namenode-slices" -> nnSlices = ints(argv[++i]);
        case "--no-fgl" -> fgl = false;
        case "--delay" -> delay = micros(argv[++i]);
        case "--period-us" -> period = Long.parseLong(argv[++i]);
        case "--rounds" -> rounds = Integer.parseInt(argv[++i]);
        case "--warm-up-rounds" -> warmUps = Integer.parseInt(argv[++i]);
        case "--warm-up-scale" -> warmUpScale = Integer.parseInt(argv[++i]);
        case "--clients" -> clients = Integer.parseInt(argv[++i]);
        case "--threads-per-slice" -> threadsPerSlice = Integer.parseInt(argv[++i]);
        case "--min-threads" -> minThreads = Integer.parseInt(argv[++i]);
        case "--files-per-slice" -> files = Integer.parseInt(argv[++i]);
        case "--depth" -> depth = Integer.parseInt(argv[++i]);
        case "--phases" -> phases = Arrays.stream(argv[++i].split(","))
            .map(p -> Phase.valueOf(p.trim().toUpperCase(Locale.ROOT))).toList();
        case "--layouts" -> layouts = Arrays.stream(argv[++i].split(",")).map(l -> switch (l.trim()) {
          case "private" -> false;
          case "shared" -> true;
          default -> throw new IllegalArgumentException("A layout is private or shared, not " + l + "\n" + USAGE);
        }).toList();
        case "--trace-calls-per-slice" -> traceCalls = Long.parseLong(argv[++i]);
        case "--trace" -> traces.add(Path.of(argv[++i]));
        case "--predict-slots" -> predict = ints(argv[++i]);
        case "--zookeeper-capacity" -> zkCapacity = Double.parseDouble(argv[++i]);
        case "--no-client-check" -> clientCheck = false;
        case "--out" -> out = Path.of(argv[++i]);
        case "--work" -> work = Path.of(argv[++i]);
        case "--server-conf" -> {
          String kv = argv[++i];
          if (!kv.startsWith("indexfs.") || kv.indexOf('=') < 0) {
            throw new IllegalArgumentException("--server-conf takes indexfs.KEY=VALUE, not " + kv + "\n" + USAGE);
          }
          serverConf.add(kv);
        }
        case "--help", "-h" -> throw new IllegalArgumentException(USAGE);
        default -> throw new IllegalArgumentException("Unknown argument " + a + "\n" + USAGE);
      }
    }
    if (nnSlices == null) {
      List<Integer> all = new ArrayList<>(slots);
      smallSlots.stream().filter(n -> !all.contains(n)).forEach(all::add);
      nnSlices = all;
    }
    if (slots.isEmpty() || slots.get(0) != 1 || (!smallSlots.isEmpty() && smallSlots.get(0) != 1)) {
      throw new IllegalArgumentException("Each slot list starts at 1 (the baseline of speedup and efficiency)\n" + USAGE);
    }
    if (slice <= 0 || smallSlice <= 0 || rounds < 1 || warmUps < 0 || warmUpScale < 1 || clients < 1 || files < 1
        || threadsPerSlice < 1) {
      throw new IllegalArgumentException("Slices, rounds, clients, files and threads must be positive\n" + USAGE);
    }
    return new ClusterOptions(slots, slice, smallSlots, smallSlice, nnSlices, fgl, delay, period, rounds, warmUps,
        warmUpScale,
        clients, threadsPerSlice, minThreads, files, depth, phases, layouts, traceCalls, List.copyOf(traces), predict,
        zkCapacity, clientCheck, out, work, ci, List.copyOf(serverConf), List.of(argv));
  }

  private static List<Integer> ints(String csv) {
    if (csv.equals("none")) {
      return List.of();
    }
    return Arrays.stream(csv.split(",")).map(String::trim).map(Integer::parseInt).toList();
  }

  /** A delay: {@code 100us}, {@code 1ms}, or a bare number of microseconds. */
  static long micros(String d) {
    String v = d.trim().toLowerCase(Locale.ROOT);
    if (v.endsWith("us") || v.endsWith("µs")) {
      return Long.parseLong(v.substring(0, v.length() - 2));
    }
    if (v.endsWith("ms")) {
      return Math.round(Double.parseDouble(v.substring(0, v.length() - 2)) * 1000);
    }
    return Long.parseLong(v);
  }

  /** Client threads, in all, against a system of {@code slices} slices. */
  int threads(int slices) {
    return Math.max(minThreads, threadsPerSlice * slices);
  }

  /** Threads each client host runs against a system of {@code slices} slices. */
  int threadsPerClient(int slices) {
    return (threads(slices) + clients - 1) / clients;
  }

  /** mdtest files per thread against a system of {@code slices} slices (the work grows with them). */
  int filesPerThread(int slices) {
    return (int) Math.max(1, (long) filesPerSlice * slices / ((long) clients * threadsPerClient(slices)));
  }
}
