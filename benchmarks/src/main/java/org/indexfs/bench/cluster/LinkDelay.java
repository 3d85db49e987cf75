package org.indexfs.bench.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.indexfs.client.NetHosts;

/**
 * The delay every packet between two hosts pays, each way. Where the kernel has {@code sch_netem},
 * a netem qdisc on each host's side of its link ({@code tc qdisc … netem delay}). A kernel built
 * without it (some VM kernels are) gets {@code netdelay} instead: a small C program (compiled here
 * with {@code cc}) that holds every packet crossing the hosts' bridge — iptables sends them to it
 * through NFQUEUE — for the delay, then lets it go on. It runs in a cgroup of its own, so its CPU
 * is counted, and at real-time priority, so its wake-ups do not stretch the delay; ping measures
 * what either way gives.
 */
final class LinkDelay implements AutoCloseable {
  static final String SLICE = "netdelay";

  private final long micros;
  private final String how;
  private final HostProgram delayer;
  private final List<String> rule;

  private LinkDelay(long micros, String how, HostProgram delayer, List<String> rule) {
    this.micros = micros;
    this.how = how;
    this.delayer = delayer;
    this.rule = rule;
  }

  static LinkDelay none() {
    return new LinkDelay(0, "no delay", null, null);
  }

  /** Delays every host's packets by {@code micros} each way: netem if the kernel has it, netdelay if not. */
  static LinkDelay apply(NetHosts hosts, long micros, Path work, CpuSlices.Slice slice)
      throws IOException, InterruptedException {
    try {
      for (int k = 0; k < hosts.count(); k++) {
        hosts.delay(k, micros);
      }
      return new LinkDelay(micros, "netem (tc qdisc netem delay " + micros + "us on each host's link)", null, null);
    } catch (IOException e) {
      if (!String.valueOf(e.getMessage()).contains("qdisc kind is unknown")) {
        throw e;
      }
    }
    Path binary = compile(work.resolve("netdelay"));
    slice.allowRealTime(100_000); // a tenth of each second at most; it needs far less
    IOException last = null;
    for (int attempt = 0; attempt < 5; attempt++) {
      int queue = 1000 + ThreadLocalRandom.current().nextInt(60_000);
      HostProgram p = HostProgram.start(SLICE, List.of(), slice.procsFiles(),
          List.of(binary.toString(), String.valueOf(queue), String.valueOf(micros)), work.resolve("netdelay"),
          Files.createDirectories(work.resolve("logs")).resolve("netdelay.log"));
      try {
        p.await(l -> l.startsWith("NETDELAY_READY"), 0, 30_000);
      } catch (IOException taken) {
        last = taken; // another instance holds this queue number
        p.close();
        continue;
      }
      List<String> rule = List.of("FORWARD", "-i", hosts.bridgeName(), "-o", hosts.bridgeName(), "-j", "NFQUEUE",
          "--queue-num", String.valueOf(queue));
      List<String> insert = new ArrayList<>(List.of("iptables", "-I", rule.get(0), "1"));
      insert.addAll(rule.subList(1, rule.size()));
      try {
        run(insert);
      } catch (IOException e) {
        p.close();
        throw new IOException("This kernel has no sch_netem, and netdelay's iptables rule could not be set: "
            + e.getMessage() + " — install iptables, or run with --delay 0", e);
      }
      return new LinkDelay(micros, "netdelay (this kernel has no sch_netem: an NFQUEUE delay line on the hosts'"
          + " bridge holds every packet " + micros + " µs, each way)", p, rule);
    }
    throw new IOException("netdelay could not bind an NFQUEUE queue", last);
  }

  private static Path compile(Path dir) throws IOException, InterruptedException {
    Files.createDirectories(dir);
    Path source = dir.resolve("netdelay.c");
    try (InputStream in = LinkDelay.class.getResourceAsStream("netdelay.c")) {
      if (in == null) {
        throw new IOException("netdelay.c is missing from the class path");
      }
      Files.write(source, in.readAllBytes());
    }
    Path binary = dir.resolve("netdelay");
    try {
      run(List.of("cc", "-O2", "-o", binary.toString(), source.toString()));
    } catch (IOException e) {
      throw new IOException("This kernel has no sch_netem, and netdelay (the fallback) did not compile: " + e.getMessage()
          + " — install a C compiler, or run with --delay 0", e);
    }
    return binary;
  }

  private static String run(List<String> command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IOException(String.join(" ", command) + " failed: " + out.trim());
    }
    return out;
  }

  long micros() {
    return micros;
  }

  String describe() {
    return how;
  }

  /** Whether the delay still holds: netem stays with the links; netdelay must still run. */
  void check() {
    if (delayer != null && !delayer.isAlive()) {
      throw new IllegalStateException("netdelay exited; see " + delayer.log() + ": the emulation failed");
    }
  }

  /** Where the delay is enforced, for the check: the netdelay program's rule, or null with netem. */
  boolean usesNetdelay() {
    return delayer != null;
  }

  @Override
  public void close() {
    if (rule != null) {
      List<String> delete = new ArrayList<>(List.of("iptables", "-D"));
      delete.addAll(rule);
      try {
        run(delete);
      } catch (IOException | InterruptedException e) {
        System.err.println("Could not remove the NFQUEUE rule: " + e.getMessage());
      }
    }
    if (delayer != null) {
      try {
        delayer.close();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
