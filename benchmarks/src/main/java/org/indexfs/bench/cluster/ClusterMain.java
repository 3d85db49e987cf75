package org.indexfs.bench.cluster;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.indexfs.bench.WorkDirs;
import org.indexfs.bench.mdtest.Machine;
import org.indexfs.bench.replay.TraceGenerator;
import org.indexfs.bench.report.BenchReport;
import org.indexfs.bench.report.ReportMain;
import org.indexfs.bench.report.ReportWriter;

/**
 * {@code bin/indexfs bench cluster}: IndexFS against the NameNode on an emulated cluster of small,
 * equal machines on this one (DESIGN §16; the method is in docs/performance/cluster/README.md).
 * Builds the hosts, starts every system, proves the emulation holds, warms every JVM, runs the
 * measured rounds, re-runs the largest configurations with twice the client threads, lets the
 * placement model predict the measurement and beyond, and writes the report.
 */
public final class ClusterMain {
  static final String SLOT_HEAP = "256m";
  static final String NAMENODE_HEAP = "1g";
  static final String CLIENT_HEAP = "1g";

  private ClusterMain() {}

  public static void main(String[] args) throws Exception {
    ReportMain.run(args, ClusterOptions::parse, ClusterMain::run, ClusterOptions::out, 1);
  }

  static BenchReport run(ClusterOptions o) throws Exception {
    EmulatedHosts.checkMachine();
    Path work = o.work() != null ? Files.createDirectories(o.work().toAbsolutePath())
        : Files.createTempDirectory("indexfs-cluster-");
    List<Config> configs = Config.all(o);
    List<Integer> clusterSizes = configs.stream().filter(Config::indexfs).map(Config::slices).distinct().toList();
    List<NameNodeHost.Lock> locks = configs.stream().filter(c -> !c.indexfs()).map(Config::lock).distinct().toList();
    List<String> names = new ArrayList<>(List.of(ZooKeeperHost.HOST));
    locks.forEach(l -> names.add(NameNodeHost.hostName(l)));
    for (int n : clusterSizes) {
      for (int k = 0; k < n; k++) {
        names.add(SlotCluster.hostName(n, k));
      }
    }
    for (int k = 0; k < o.clients(); k++) {
      names.add(Agents.hostName(k));
    }
    ClusterRounds.Progress progress = new ClusterRounds.Progress();
    progress.step(String.format(Locale.ROOT, "building %d hosts (%d configurations) in %s", names.size(),
        configs.size(), work));
    BenchReport report;
    try (EmulatedHosts net = new EmulatedHosts(names, work, o.delayMicros(), o.periodMicros())) {
      Path log4j = JavaCommand.writeLogging(work);
      ZooKeeperHost zk = ZooKeeperHost.start(net, work, log4j);
      Map<Integer, SlotCluster> clusters = new LinkedHashMap<>();
      Map<NameNodeHost.Lock, NameNodeHost> nameNodes = new LinkedHashMap<>();
      int slotProcessors = (int) Math.ceil(Math.max(o.slice(), o.smallSlice()));
      double nnCpus = configs.stream().filter(c -> !c.indexfs()).mapToDouble(Config::cpus).max().orElse(1);
      ExecutorService starts = Executors.newCachedThreadPool();
      try {
        List<Future<?>> started = new ArrayList<>();
        for (int n : clusterSizes) {
          SlotCluster c = new SlotCluster(net, zk.connect(), n, o.serverConf());
          clusters.put(n, c);
          started.add(starts.submit(() -> {
            c.start(work, log4j, SLOT_HEAP, slotProcessors);
            return null;
          }));
        }
        for (NameNodeHost.Lock l : locks) {
          NameNodeHost nn = new NameNodeHost(net, l);
          nameNodes.put(l, nn);
          started.add(starts.submit(() -> {
            nn.start(work, log4j, NAMENODE_HEAP, (int) Math.ceil(nnCpus));
            return null;
          }));
        }
        for (Future<?> f : started) {
          f.get();
        }
      } finally {
        starts.shutdownNow();
      }
      progress.step("every server is up; starting the client hosts");
      try (Agents agents = Agents.start(net, o.clients(), log4j, CLIENT_HEAP)) {
        Map<String, List<HostProgram>> processes = new LinkedHashMap<>();
        clusters.values().forEach(c -> {
          for (int k = 0; k < c.slots; k++) {
            processes.put(c.hosts.get(k), List.of(c.servers().get(k)));
          }
        });
        nameNodes.values().forEach(nn -> processes.put(nn.host, List.of(nn.process())));
        for (int k = 0; k < agents.count(); k++) {
          processes.put(Agents.hostName(k), List.of(agents.programs().get(k)));
        }
        Meter meter = new Meter(net, zk, clusters);
        Map<String, FileSystem> admins = new LinkedHashMap<>();
        Map<Integer, Path> traces = new LinkedHashMap<>();
        try {
          ClusterRounds rounds = new ClusterRounds(o, net, agents, meter, admins, traces, progress);
          EmulationCheck check = EmulationCheck.run(net, configs, processes, rounds);
          progress.step("emulation checked: " + check.facts().get(0));
          List<String> lockFacts = new ArrayList<>();
          for (NameNodeHost nn : nameNodes.values()) {
            List<String> held = nn.locksInHeap();
            if (!held.equals(List.of(nn.lock.className))) {
              throw new IllegalStateException("The NameNode of the " + nn.lock.label + " holds " + held
                  + " in its heap, not " + nn.lock.className);
            }
            lockFacts.add(nn.lock.label + ": " + held.get(0));
          }
          openTargets(o, agents, clusters, nameNodes, admins);
          for (int n : configs.stream().map(Config::slices).distinct().toList()) {
            if (o.traceCallsPerSlice() > 0) {
              traces.put(n, generateTrace(o, n, work));
            }
          }
          Map<String, HostProgram> servers = new LinkedHashMap<>();
          processes.forEach((h, ps) -> {
            if (!h.startsWith(Agents.HOST_PREFIX)) {
              servers.put(h, ps.get(0));
            }
          });
          JitCounts jit = new JitCounts();
          Map<String, Integer> warmUps = rounds.warmUp(configs, servers);
          jit.warmedUp(servers);
          rounds.measure(configs);
          jit.ended(servers);
          if (o.clientCheck()) {
            for (Config c : largestPerSystem(configs, o)) {
              rounds.clientCheck(c);
            }
          }
          progress.step("running the model");
          report = report(o, configs, rounds, check, lockFacts, traces, work, jit, warmUps);
        } finally {
          for (FileSystem fs : admins.values()) {
            fs.close();
          }
        }
      }
    } finally {
      if (o.work() == null) {
        WorkDirs.deleteTree(work);
      }
    }
    return report;
  }

  /** The configuration of each system with the most slices at the main slice: the client check runs there. */
  static List<Config> largestPerSystem(List<Config> configs, ClusterOptions o) {
    Map<String, Config> largest = new LinkedHashMap<>();
    for (Config c : configs) {
      if (c.slice() == o.slice()) {
        largest.merge(c.system(), c, (a, b) -> b.slices() > a.slices() ? b : a);
      }
    }
    return new ArrayList<>(largest.values());
  }

  /** Every client host opens every system as the workload's user; the bench opens each as its superuser and makes /bench. */
  private static void openTargets(ClusterOptions o, Agents agents, Map<Integer, SlotCluster> clusters,
      Map<NameNodeHost.Lock, NameNodeHost> nameNodes, Map<String, FileSystem> admins) throws Exception {
    for (SlotCluster c : clusters.values()) {
      StringBuilder conf = new StringBuilder();
      c.clientConf().forEach((k, v) -> conf.append(" c.").append(k).append('=').append(v));
      agents.all("open name=" + c.name + " uri=" + c.uri() + conf);
      Configuration admin = new Configuration();
      c.clientConf().forEach(admin::set);
      // Closed for good when closed: ZooKeeper stops right after, and a lingering session would call it for 10 s.
      admin.set(org.indexfs.common.IndexFsConfig.CLIENT_CONNECTION_LINGER_MS.name(), "0");
      admins.put(c.name, makeBench(FileSystem.newInstance(URI.create(c.uri()), admin)));
    }
    for (NameNodeHost nn : nameNodes.values()) {
      agents.all("open name=" + nn.host + " uri=" + nn.uri());
      admins.put(nn.host, makeBench(FileSystem.newInstance(URI.create(nn.uri()), new Configuration())));
    }
  }

  private static FileSystem makeBench(FileSystem fs) throws java.io.IOException {
    org.apache.hadoop.fs.Path bench = new org.apache.hadoop.fs.Path("/bench");
    fs.mkdirs(bench);
    fs.setOwner(bench, ClusterSettings.USER, null);
    return fs;
  }

  /** The LinkedIn-mix trace one client host replays against a system of {@code slices} slices. */
  private static Path generateTrace(ClusterOptions o, int slices, Path work) throws java.io.IOException {
    Path file = work.resolve("traces").resolve("linkedin-mix-" + slices + ".log.gz");
    Files.createDirectories(file.getParent());
    long lines = Math.max(100, o.traceCallsPerSlice() * slices / o.clients());
    new TraceGenerator(PlacementLoads.SEED, 16, TraceGenerator.LINKEDIN_MIX).write(file, lines);
    return file;
  }

  private static BenchReport report(ClusterOptions o, List<Config> configs, ClusterRounds rounds,
      EmulationCheck check, List<String> lockFacts, Map<Integer, Path> traces, Path work, JitCounts jit,
      Map<String, Integer> warmUps) throws Exception {
    BenchReport report = new BenchReport("IndexFS against the NameNode on an emulated cluster of small machines");
    report.fact("command", "bin/indexfs bench cluster " + String.join(" ", o.args()));
    report.fact("date", Instant.now().toString());
    report.fact("machine", Machine.describe());
    org.rocksdb.RocksDB.loadLibrary(); // so the versions name it
    report.fact("versions", Machine.versions());
    report.fact("hosts", String.format(Locale.ROOT, "every slot server and each NameNode its own process on its own"
        + " network-namespace host with its own data directory; slices of %s CPU%s, a cgroup quota each (CFS period"
        + " %d µs); a NameNode on N slices is one process with N slices' quota; ZooKeeper and %d client hosts"
        + " without a slice; %d µs of delay between any two hosts, each way (see 'delay')",
        ClusterReport.cpus(o.slice()), o.smallSlots().isEmpty() ? ""
            : " (" + ClusterReport.cpus(o.smallSlice()) + " for the slot counts " + o.smallSlots() + ")",
        o.periodMicros(), o.clients(), o.delayMicros()));
    report.fact("server JVMs", "slots: " + JavaCommand.serverFlags(SLOT_HEAP, 1) + "; NameNode: "
        + JavaCommand.serverFlags(NAMENODE_HEAP, 1) + " (ActiveProcessorCount = the slices' CPUs rounded up);"
        + " measured warm: unmeasured rounds of every workload first (" + o.warmUpScale() + "× the files), quotas"
        + " lifted, until a round compiled under " + Math.round(100 * ClusterRounds.SETTLED) + " % more methods (at"
        + " most " + o.warmUpRounds() + "): " + warmUps);
    report.fact("durability and audit", "IndexFS: indexfs.wal.sync=true (the WAL fsynced before a mutation returns),"
        + " audit log on; NameNode: edit log fsynced (a real NameNode process), audit log on (the same log4j"
        + " appender as IndexFS's); both log warnings only otherwise"
        + (o.serverConf().isEmpty() ? "" : "; IndexFS server settings given: " + String.join(", ", o.serverConf())));
    report.fact("NameNode locks", String.join("; ", lockFacts) + " (the lock class found live in each NameNode's heap"
        + " by jcmd GC.class_histogram). Hadoop 3.5's fine-grained lock splits the global lock into a namespace lock"
        + " and a block-manager lock");
    report.fact("workload", String.format(Locale.ROOT, "as user %s; mdtest phases %s in %s, %d files per slice per"
        + " layout under a directory chain of depth %d; %d client threads per slice (at least %d) over %d client"
        + " hosts; %s. The work grows with the slices (the same per slice), so each phase lasts about as long"
        + " on every configuration that scales", ClusterSettings.USER, o.phases(),
        o.layouts().stream().map(b -> b ? "one shared directory" : "private directories").toList(),
        o.filesPerSlice(), o.depth(), o.threadsPerSlice(), o.minThreads(), o.clients(),
        o.traceCallsPerSlice() > 0 ? String.format(Locale.ROOT, "the LinkedIn-mix trace (TraceGenerator, seed %d),"
            + " %,d calls per slice, each client host replaying its own copy as fast as it can, its namespace"
            + " pre-created untimed", PlacementLoads.SEED, o.traceCallsPerSlice()) : "no trace"));
    if (!o.traces().isEmpty()) {
      report.fact("audit logs replayed", o.traces().toString());
    }
    for (int i = 0; i < check.facts().size(); i++) {
      report.fact(i == 0 ? "emulation checked" : "delay", check.facts().get(i));
    }
    report.fact("latency", "a slice is a CFS quota: a server that used its quota waits for the next period, so"
        + " latencies include such waits (up to a period) — compare them between systems on the same slice");
    report.fact("quiet", String.format(Locale.ROOT, "before each timed run the bench waited until the servers and"
        + " ZooKeeper used no more CPU than at rest (%.3f cores) + 0.05; %d wait(s) gave up after 30 s. ZooKeeper's"
        + " requests at rest (%.1f/s: its sessions' pings) are not counted against a workload",
        rounds.idleBaseline(), rounds.quietTimeouts(), meterAtRest(rounds)));
    for (int i = 0; i < rounds.notes().size(); i++) {
      report.fact("note " + (i + 1), rounds.notes().get(i));
    }
    List<Measurement> ms = rounds.measurements();
    ClusterReport.tables(report, o, configs, ms);
    report.table(check.rttTable(o.delayMicros()));
    report.table(jit.table());
    modelTables(report, o, ms, traces, work);
    ReportWriter.write(report, o.out());
    if (!rounds.notes().isEmpty()) {
      throw new IllegalStateException("The emulation did not hold (report written to " + o.out() + "): "
          + rounds.notes());
    }
    return report;
  }

  private static double meterAtRest(ClusterRounds rounds) {
    return rounds.meter().zooKeeperAtRest();
  }

  private static void modelTables(BenchReport report, ClusterOptions o, List<Measurement> ms,
      Map<Integer, Path> traces, Path work) throws Exception {
    Map<Summary.Key, Summary> s = Summary.of(ms.stream().filter(m -> m.round() >= 0).toList());
    List<String> phases = Summary.phases(ms.stream().filter(m -> m.round() >= 0).toList());
    for (double slice : ClusterReport.slices(o)) {
      List<Integer> slots = slice == o.slice() ? o.slots() : o.smallSlots();
      Map<Integer, Map<String, PlacementLoads.Load>> loads = new LinkedHashMap<>();
      for (int n : slots) {
        loads.put(n, PlacementLoads.loads(o, n, slice, traces.get(n)));
      }
      report.table(ScaleModel.check(phases, s, slots, slice, loads));
      if (slice == o.slice() && !o.predictSlots().isEmpty()) {
        Map<Integer, Map<String, PlacementLoads.Load>> beyond = new LinkedHashMap<>();
        for (int n : o.predictSlots()) {
          Path trace = o.traceCallsPerSlice() > 0 ? traces.computeIfAbsent(n, k -> generate(o, k, work)) : null;
          beyond.put(n, PlacementLoads.loads(o, n, slice, trace));
        }
        report.table(ScaleModel.beyond(phases, s, slots, slice, loads, beyond, o.predictSlots(),
            o.zookeeperCapacity()));
      }
    }
  }

  private static Path generate(ClusterOptions o, int slices, Path work) {
    try {
      return generateTrace(o, slices, work);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
