package org.indexfs.it.hosts;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The nemesis of a chaos round on the compose topology ({@link ComposeHosts}), while a
 * {@link ChaosWorkload} runs: in turn, across slots, {@code kill -9} of a slot's active server
 * (it comes back as a standby), the active cut off from ZooKeeper only (a blackhole route to each
 * ZooKeeper host inside its host: its standby must take over, and the old one must have stopped
 * acknowledging before the successor leased the slot), the active cut off from the clients only
 * (no failover: ZooKeeper still sees it; clients retry until it is back), two ZooKeeper nodes killed
 * (and restarted) one after the other, an active's disk filled to the last byte (and freed), a DataNode killed (and restarted), and an active paused (SIGSTOP) past its
 * session, then resumed. Each fault goes into the history; after each
 * the workload must make progress. Findings are collected, not thrown, so a long round reports all.
 */
final class ChaosRound {
  private static final DateTimeFormatter LOG_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS");

  final ComposeHosts cluster;
  final ChaosWorkload work;
  final History history;
  final List<Double> failovers = new ArrayList<>();
  final List<Long> fencedAheadMs = new ArrayList<>();
  final List<String> findings = new ArrayList<>();
  final List<String> faults = new ArrayList<>();
  private int step;

  ChaosRound(ComposeHosts cluster, ChaosWorkload work) {
    this.cluster = cluster;
    this.work = work;
    this.history = work.history;
  }

  /** Runs the eight faults once (the CI round), or again and again until {@code untilMs} (wall clock). */
  void run(long untilMs) throws Exception {
    do {
      int slot = step % cluster.slotCount();
      killActive(slot);
      pauseActive(slot);
      partitionFromZooKeeper((slot + 1) % cluster.slotCount());
      partitionFromClients((slot + 2) % cluster.slotCount());
      // Two ZooKeeper nodes one after the other: clients' sessions move twice (a client that lost
      // its configured addresses after the first move could not make the second).
      killZooKeeper("zk" + (1 + step % 3));
      killZooKeeper("zk" + (1 + (step + 1) % 3));
      killDataNode("datanode" + (1 + step % 3));
      fillDisk(work.slotOf(work.dirs.get(step % work.dirs.size())));
      step++;
    } while (System.currentTimeMillis() < untilMs);
  }

  private void progress(String after) throws InterruptedException {
    if (!work.awaitMore(60, 120_000)) {
      findings.add("the workload made no progress after " + after);
    }
  }

  private String active(int slot) {
    String a = cluster.activeOf(slot);
    if (a == null) {
      throw new IllegalStateException("slot " + slot + " has no active server");
    }
    return a;
  }

  private String other(int slot, String service) {
    return cluster.serversOf(slot).stream().filter(s -> !s.equals(service)).findFirst().orElseThrow();
  }

  void killActive(int slot) throws Exception {
    progress("the start");
    String old = active(slot);
    String next = other(slot, old);
    int from = cluster.process(next).lineCount();
    history.nemesis("kill -9", old);
    faults.add("kill -9 " + old);
    long t = System.nanoTime();
    cluster.process(old).kill();
    cluster.process(next).await(l -> l.startsWith("INDEXFS_SERVER_READY "), from, 120_000);
    double s = (System.nanoTime() - t) / 1e9;
    failovers.add(s);
    history.nemesis("served", next);
    System.out.printf("Chaos: kill -9 %s: %s served %.1f s later%n", old, next, s);
    cluster.restartAsStandby(old);
    history.nemesis("restarted as standby", old);
    progress("kill -9 " + old);
  }

  /**
   * SIGSTOP of an active for longer than its ZooKeeper session (a long GC pause, a frozen VM): its
   * standby takes over. It is resumed as soon as the successor serves, with the calls that queued up
   * meanwhile still in its sockets: it must step down without acknowledging any of them (its journal
   * segment was recovered by the successor, so no append of the old epoch can succeed) — a write it
   * acknowledged after the successor began would be missing from the namespace (lost in the history).
   */
  void pauseActive(int slot) throws Exception {
    String old = active(slot);
    String next = other(slot, old);
    int from = cluster.process(next).lineCount();
    int oldFrom = cluster.process(old).lineCount();
    history.nemesis("SIGSTOP", old);
    faults.add("SIGSTOP " + old);
    long t = System.nanoTime();
    cluster.process(old).signal("STOP");
    try {
      cluster.process(next).await(l -> l.startsWith("INDEXFS_SERVER_READY "), from, 120_000);
    } finally {
      cluster.process(old).signal("CONT");
      history.nemesis("SIGCONT", old);
    }
    double s = (System.nanoTime() - t) / 1e9;
    failovers.add(s);
    history.nemesis("served", next);
    cluster.process(old).await(l -> l.startsWith("INDEXFS_STANDBY_READY "), oldFrom, 120_000);
    history.nemesis("stepped down", old);
    System.out.printf("Chaos: SIGSTOP %s: %s served %.1f s later; resumed, the old one stepped down%n", old, next, s);
    progress("SIGSTOP of " + old);
  }

  void partitionFromZooKeeper(int slot) throws Exception {
    String old = active(slot);
    String next = other(slot, old);
    int from = cluster.process(next).lineCount();
    int oldFrom = cluster.process(old).lineCount();
    List<String> zookeepers = cluster.services("zookeeper").stream().map(ComposeFile.Service::name).toList();
    LocalDateTime since = LocalDateTime.now().minusSeconds(1);
    history.nemesis("partition from zookeeper", old);
    faults.add("partition " + old + " from ZooKeeper");
    long t = System.nanoTime();
    for (String zk : zookeepers) {
      cluster.hosts.blackhole(cluster.host(old), cluster.ip(zk));
    }
    try {
      cluster.process(next).await(l -> l.startsWith("INDEXFS_SERVER_READY "), from, 120_000);
    } finally {
      for (String zk : zookeepers) {
        cluster.hosts.unblackhole(cluster.host(old), cluster.ip(zk));
      }
      history.nemesis("healed", old);
    }
    double s = (System.nanoTime() - t) / 1e9;
    failovers.add(s);
    history.nemesis("served", next);
    cluster.process(old).await(l -> l.startsWith("INDEXFS_STANDBY_READY "), oldFrom, 120_000);
    history.nemesis("stepped down", old);
    // The old epoch acknowledges nothing once the new one began: its fence closed before the lease moved.
    LocalDateTime stopped = firstLine(cluster.process(old).log(), "stops serving", since);
    LocalDateTime leased = firstLine(cluster.process(next).log(), "leased by", since);
    if (stopped == null || leased == null || !stopped.isBefore(leased)) {
      findings.add(old + " (cut off from ZooKeeper) stopped serving at " + stopped + ", not before " + next
          + " leased its slot at " + leased);
    } else {
      fencedAheadMs.add(java.time.Duration.between(stopped, leased).toMillis());
    }
    System.out.printf("Chaos: %s cut off from ZooKeeper: it stopped acknowledging %s ms before %s leased the slot,"
        + " which served %.1f s after the cut; healed, the old one stepped down%n", old,
        stopped == null || leased == null ? "?" : java.time.Duration.between(stopped, leased).toMillis(), next, s);
    progress("the ZooKeeper partition of " + old);
  }

  void partitionFromClients(int slot) throws Exception {
    String active = active(slot);
    history.nemesis("partition from clients", active);
    faults.add("partition " + active + " from the clients");
    cluster.hosts.blackhole(cluster.host(active), cluster.hosts.gateway());
    try {
      Thread.sleep(8_000);
    } finally {
      cluster.hosts.unblackhole(cluster.host(active), cluster.hosts.gateway());
      history.nemesis("healed", active);
    }
    progress("the client partition of " + active);
    if (!active.equals(cluster.activeOf(slot))) {
      findings.add("slot " + slot + " moved while only the clients were cut off from " + active);
    }
    System.out.printf("Chaos: %s cut off from the clients for 8 s: still the active, clients rode through%n", active);
  }

  private List<String> actives() {
    List<String> a = new ArrayList<>();
    for (int k = 0; k < cluster.slotCount(); k++) {
      a.add(cluster.activeOf(k));
    }
    return a;
  }

  /** A fault that must not move any slot (a lost ZooKeeper node or DataNode of three). */
  private void noFailover(List<String> before, String fault) {
    List<String> after = actives();
    if (!before.equals(after)) {
      findings.add("slots moved when " + fault + ": " + before + " -> " + after);
    }
  }

  void killZooKeeper(String zk) throws Exception {
    List<String> before = actives();
    history.nemesis("kill -9", zk);
    faults.add("kill -9 " + zk);
    cluster.process(zk).kill();
    progress("kill -9 " + zk);
    cluster.restartInfrastructure(zk);
    history.nemesis("restarted", zk);
    progress("the restart of " + zk);
    noFailover(before, zk + " was killed");
    System.out.printf("Chaos: kill -9 %s and restart: the workload went on%n", zk);
  }

  void killDataNode(String dn) throws Exception {
    List<String> before = actives();
    history.nemesis("kill -9", dn);
    faults.add("kill -9 " + dn);
    cluster.process(dn).kill();
    progress("kill -9 " + dn);
    cluster.restartInfrastructure(dn);
    cluster.awaitHdfs(120_000);
    history.nemesis("restarted", dn);
    progress("the restart of " + dn);
    noFailover(before, dn + " was killed");
    System.out.printf("Chaos: kill -9 %s and restart: the workload went on%n", dn);
  }

  /** Refusals of writes while a disk was full: the one kind of error the application may see. */
  static final String NO_SPACE = "ClusterStorageCapacityExceededException";
  private static final long ANSWER_SLACK_MS = 2_000;

  /**
   * The active's disk filled to the last byte (a runaway log, another tenant on the machine): the
   * slot refuses what would grow its store with HDFS's ClusterStorageCapacityExceededException,
   * and once the space is back it writes again by itself — no restart, no failover. A writer whose
   * directory is there sees the refusals; nothing acknowledged is lost (the checker).
   */
  void fillDisk(int slot) throws Exception {
    List<String> before = actives();
    String active = active(slot);
    history.nemesis("disk full", active);
    faults.add("disk full on " + active);
    long t = System.currentTimeMillis();
    Path ballast = cluster.fillDisk(active);
    Thread.sleep(6_000);
    Files.delete(ballast);
    history.nemesis("disk freed", active);
    long refused = history.events().stream().filter(e -> e.process() >= 0 && e.type() == History.Type.INFO
        && e.timeMs() >= t && String.valueOf(e.result()).contains(NO_SPACE)).count();
    if (refused == 0) {
      findings.add("no write was refused while the disk of " + active + " was full");
    }
    progress("the disk of " + active + " was freed");
    noFailover(before, "the disk of " + active + " filled up");
    System.out.printf("Chaos: disk of %s full for 6 s: %d writes refused with %s, then writing went on%n", active,
        refused, NO_SPACE);
  }

  /** Errors the application saw that no fault explains: anything but a no-space refusal while a disk was full. */
  List<String> unexplainedErrors() {
    List<String> out = new ArrayList<>();
    long fullSince = -1;
    long freedAt = Long.MIN_VALUE;
    for (History.Event e : history.events()) {
      if (e.process() < 0) {
        if (e.op().equals("disk full")) {
          fullSince = e.timeMs();
        } else if (e.op().equals("disk freed")) {
          freedAt = e.timeMs();
        }
        continue;
      }
      if (e.type() == History.Type.INFO) {
        boolean whileFull = fullSince >= 0 && e.timeMs() >= fullSince
            && (freedAt < fullSince || e.timeMs() <= freedAt + ANSWER_SLACK_MS);
        if (!(whileFull && String.valueOf(e.result()).contains(NO_SPACE))) {
          out.add(e.op() + " " + e.args() + ": " + e.result());
        }
      }
    }
    return out;
  }

  /** The time of the first line of {@code log} at or after {@code since} that contains {@code text}; null if none. */
  static LocalDateTime firstLine(Path log, String text, LocalDateTime since) throws IOException {
    for (String line : Files.readAllLines(log)) {
      if (line.length() > 23 && Character.isDigit(line.charAt(0)) && line.contains(text)) {
        LocalDateTime at = LocalDateTime.parse(line.substring(0, 23), LOG_TIME);
        if (!at.isBefore(since)) {
          return at;
        }
      }
    }
    return null;
  }

  /** Per fault: the longest time in which no writer got an acknowledgement, from the fault to the next one. */
  List<String> stalls() {
    List<String> out = new ArrayList<>();
    List<History.Event> events = history.events();
    for (int i = 0; i < events.size(); i++) {
      History.Event f = events.get(i);
      if (f.process() >= 0 || !isFault(f.op())) {
        continue;
      }
      long last = f.timeMs();
      long worst = 0;
      long longestCall = 0;
      java.util.Map<Integer, Long> invoked = new java.util.HashMap<>();
      for (int j = i + 1; j < events.size(); j++) {
        History.Event e = events.get(j);
        if (e.process() < 0 && isFault(e.op())) {
          break;
        }
        if (e.process() < 0) {
          continue;
        }
        if (e.type() == History.Type.INVOKE) {
          invoked.put(e.process(), e.timeMs());
        } else {
          longestCall = Math.max(longestCall, e.timeMs() - invoked.getOrDefault(e.process(), f.timeMs()));
        }
        if (e.type() == History.Type.OK) {
          worst = Math.max(worst, e.timeMs() - last);
          last = e.timeMs();
        }
      }
      out.add(String.format("%s %s: %.1f s without any acknowledgement, longest call %.1f s", f.op(), f.args(),
          worst / 1e3, longestCall / 1e3));
    }
    return out;
  }

  private static boolean isFault(String nemesisOp) {
    return nemesisOp.startsWith("kill") || nemesisOp.startsWith("partition") || nemesisOp.equals("SIGSTOP")
        || nemesisOp.equals("disk full");
  }

  String summary(HistoryChecker.Result result) {
    List<Double> sorted = new ArrayList<>(failovers);
    Collections.sort(sorted);
    return String.format("Chaos round: %d faults (%s); %s; failover p50 %.1f s,"
        + " max %.1f s; per fault: %s; old epoch stopped acknowledging before the new one began in %d/%d"
        + " ZooKeeper partitions; findings: %s",
        faults.size(), String.join(", ", faults), result, sorted.isEmpty() ? 0 : sorted.get(sorted.size() / 2),
        sorted.isEmpty() ? 0 : sorted.get(sorted.size() - 1), String.join("; ", stalls()), fencedAheadMs.size(),
        faults.stream().filter(f -> f.endsWith("from ZooKeeper")).count(), findings.isEmpty() ? "none" : findings);
  }
}
