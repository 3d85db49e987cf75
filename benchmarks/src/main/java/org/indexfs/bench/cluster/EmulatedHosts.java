package org.indexfs.bench.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.indexfs.client.NetHosts;

/**
 * The machines of an emulated cluster (DESIGN §16), built with the fault harness's hosts
 * ({@link NetHosts}: a network namespace each, with its own address on a bridge): each host gets
 * its own cgroup ({@link CpuSlices}: a CPU slice when the bench gives it one, and the CPU
 * accounting of every host either way) and a delay ({@link LinkDelay}: netem, or netdelay where
 * the kernel has no netem), so every packet between two hosts waits {@code delay} each way. The bench itself runs outside every host, on the
 * bridge's own address.
 */
final class EmulatedHosts implements AutoCloseable {
  private final NetHosts net;
  private final CpuSlices slices;
  private final Map<String, Integer> index = new LinkedHashMap<>();
  private final Map<String, CpuSlices.Slice> slice = new LinkedHashMap<>();
  private final List<HostProgram> programs = new ArrayList<>();
  private final Path work;
  private final LinkDelay delay;
  private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();
  /** Ctrl-C (or a kill) of the bench still stops its programs and removes its hosts, cgroups and rules. */
  private final Thread onExit = new Thread(this::close, "cluster-hosts-exit");

  EmulatedHosts(List<String> names, Path work, long delayMicros, long periodMicros)
      throws IOException, InterruptedException {
    this.work = work;
    String group = "indexfs-bench-" + Integer.toHexString(ThreadLocalRandom.current().nextInt(1 << 20));
    this.slices = CpuSlices.create(group, periodMicros);
    NetHosts hosts = null;
    try {
      hosts = new NetHosts(names.size());
      for (String n : names) {
        index.put(n, index.size());
        slice.put(n, slices.add(n));
      }
      slice.put(LinkDelay.SLICE, slices.add(LinkDelay.SLICE));
      this.delay = delayMicros > 0 ? LinkDelay.apply(hosts, delayMicros, work, slice.get(LinkDelay.SLICE))
          : LinkDelay.none();
    } catch (IOException | InterruptedException | RuntimeException e) {
      if (hosts != null) {
        hosts.close();
      }
      slices.close();
      throw e;
    }
    this.net = hosts;
    Runtime.getRuntime().addShutdownHook(onExit);
  }

  /** Whether this machine can build hosts: root, ip netns, tc, ping, a cgroup file system. */
  static void checkMachine() {
    List<String> missing = new ArrayList<>();
    if (!NetHosts.available()) {
      missing.add("root and ip netns (network namespaces)");
    }
    for (String tool : List.of("tc", "ping")) {
      if (!onPath(tool)) {
        missing.add(tool + (tool.equals("ping") ? " (apt-get install iputils-ping)" : " (iproute2)"));
      }
    }
    if (!java.nio.file.Files.isWritable(Path.of("/sys/fs/cgroup/cpu")) &&
        !java.nio.file.Files.exists(Path.of("/sys/fs/cgroup/cgroup.controllers"))) {
      missing.add("a writable cgroup file system at /sys/fs/cgroup");
    }
    if (!missing.isEmpty()) {
      throw new IllegalStateException("bench cluster builds hosts with CPU slices; this machine lacks: "
          + String.join(", ", missing));
    }
  }

  private static boolean onPath(String tool) {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/sbin:/usr/bin:/sbin:/bin").split(":")) {
      if (java.nio.file.Files.isExecutable(Path.of(dir, tool))) {
        return true;
      }
    }
    return false;
  }

  List<String> names() {
    return List.copyOf(index.keySet());
  }

  /** Every cgroup the bench counts CPU in: the hosts', and the delay line's (used only by netdelay). */
  List<String> sliceNames() {
    return List.copyOf(slice.keySet());
  }

  String ip(String host) {
    return net.host(k(host));
  }

  /** The bench's own address on the bridge. */
  String gateway() {
    return net.gateway();
  }

  CpuSlices.Slice slice(String host) {
    return slice.get(host);
  }

  CpuSlices slices() {
    return slices;
  }

  long delayMicros() {
    return delay.micros();
  }

  LinkDelay delay() {
    return delay;
  }

  boolean forwardRuleAdded() {
    return net.forwardRuleAdded();
  }

  /** What {@code tc} reports for the host's link (the netem delay, checked in the report). */
  String qdisc(String host) throws IOException, InterruptedException {
    return net.qdisc(k(host)).trim();
  }

  private int k(String host) {
    Integer k = index.get(host);
    if (k == null) {
      throw new IllegalArgumentException("No host " + host);
    }
    return k;
  }

  /** Starts {@code program} on {@code host}, in its slice, logging to {@code <work>/logs/<label>.log}. */
  HostProgram start(String host, String label, List<String> program) throws IOException {
    Path dir = work.resolve("hosts").resolve(host);
    HostProgram p = HostProgram.start(label, net.exec(k(host)), slice(host).procsFiles(), program, dir,
        java.nio.file.Files.createDirectories(work.resolve("logs")).resolve(label + ".log"));
    synchronized (programs) {
      programs.add(p);
    }
    return p;
  }

  /** Round-trip times from one host to another, as {@code ping} measures them (ICMP echo). */
  record Rtt(String from, String to, int sent, int received, double minMicros, double avgMicros, double maxMicros) {}

  private static final Pattern PING_SUMMARY = Pattern.compile("(\\d+) packets transmitted, (\\d+) received");
  private static final Pattern PING_RTT = Pattern.compile("= ([\\d.]+)/([\\d.]+)/([\\d.]+)/");

  /** {@code count} pings 10 ms apart from {@code from} to {@code to}. */
  Rtt ping(String from, String to, int count) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(net.exec(k(from)));
    cmd.addAll(List.of("ping", "-n", "-q", "-c", String.valueOf(count), "-i", "0.01", "-W", "2", ip(to)));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor();
    Matcher s = PING_SUMMARY.matcher(out);
    if (!s.find()) {
      throw new IOException("ping from " + from + " to " + to + " failed: " + out.trim());
    }
    Matcher r = PING_RTT.matcher(out);
    boolean any = r.find();
    return new Rtt(from, to, Integer.parseInt(s.group(1)), Integer.parseInt(s.group(2)),
        any ? Double.parseDouble(r.group(1)) * 1000 : 0, any ? Double.parseDouble(r.group(2)) * 1000 : 0,
        any ? Double.parseDouble(r.group(3)) * 1000 : 0);
  }

  /** Stops every program (in parallel), then removes the hosts and their slices. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    if (Thread.currentThread() != onExit) {
      try {
        Runtime.getRuntime().removeShutdownHook(onExit);
      } catch (IllegalStateException exiting) {
        // the JVM is shutting down: the hook and this close race harmlessly (closed once)
      }
    }
    List<Thread> stops = new ArrayList<>();
    synchronized (programs) {
      for (HostProgram p : programs) {
        Thread t = new Thread(() -> {
          try {
            p.close();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }, "stop-" + p.name);
        t.start();
        stops.add(t);
      }
    }
    for (Thread t : stops) {
      try {
        t.join(30_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    delay.close();
    net.close();
    slices.close();
  }
}
