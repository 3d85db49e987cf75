package org.indexfs.client;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Separate "hosts" on this machine: one network namespace each, with its own address on a bridge
 * in the test's namespace (which reaches them all), so a host can be cut off from everyone — its
 * link taken down — as a partitioned machine is. Needs root and {@code ip netns}; names and the
 * subnet are random per instance, so tests can run side by side. A host can have its own
 * {@code /etc/hosts} ({@link #hostsFile}: {@code ip netns exec} mounts {@code /etc/netns/<name>/hosts}
 * over it, as Docker writes one per container), and can lose its routes to chosen addresses only
 * ({@link #blackhole}: a partition from some peers, the rest still reachable), and a delay on its
 * link ({@link #delay}: netem, as between racks).
 *
 * <p>Traffic between hosts crosses the bridge, which the kernel hands to iptables' FORWARD chain
 * when {@code br_netfilter} is loaded; a Docker engine on the machine sets that chain's policy to
 * DROP. So the bridge gets its own ACCEPT rule (when iptables is installed), removed with it.
 */
public final class NetHosts implements AutoCloseable {
  private final String id;
  private final String subnet;
  private final int count;
  private final List<String> created = new ArrayList<>();

  public NetHosts(int count) throws IOException, InterruptedException {
    ThreadLocalRandom r = ThreadLocalRandom.current();
    this.id = Integer.toHexString(0x1000 + r.nextInt(0xefff));
    this.subnet = "10." + (200 + r.nextInt(50)) + "." + r.nextInt(256);
    this.count = count;
    try {
      ip("link", "add", bridge(), "type", "bridge");
      created.add("bridge");
      ip("addr", "add", gateway() + "/24", "dev", bridge());
      ip("link", "set", bridge(), "up");
      acceptForwarding();
      for (int k = 0; k < count; k++) {
        ip("netns", "add", ns(k));
        created.add(ns(k));
        String peer = "ixp" + id + k;
        ip("link", "add", link(k), "type", "veth", "peer", "name", peer);
        ip("link", "set", peer, "netns", ns(k));
        ip("link", "set", link(k), "master", bridge());
        ip("link", "set", link(k), "up");
        ip("-n", ns(k), "link", "set", "lo", "up");
        ip("-n", ns(k), "link", "set", peer, "name", "eth0");
        ip("-n", ns(k), "addr", "add", host(k) + "/24", "dev", "eth0");
        ip("-n", ns(k), "link", "set", "eth0", "up");
      }
    } catch (IOException | InterruptedException | RuntimeException e) {
      close();
      throw e;
    }
  }

  /** Whether this machine lets the test build hosts (root, {@code ip netns}). */
  public static boolean available() {
    try {
      return new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start().waitFor() == 0
          && "root".equals(System.getProperty("user.name"));
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** The test's own address on the bridge (ZooKeeper and the clients run there). */
  public String gateway() {
    return subnet + ".1";
  }

  public String host(int k) {
    return subnet + "." + (10 + k);
  }

  /** The command prefix that runs a program on host {@code k}. */
  public List<String> exec(int k) {
    return List.of("ip", "netns", "exec", ns(k));
  }

  /** Host {@code k} loses its link: nothing reaches it and nothing leaves it. */
  public void cut(int k) throws IOException, InterruptedException {
    ip("link", "set", link(k), "down");
  }

  public void heal(int k) throws IOException, InterruptedException {
    ip("link", "set", link(k), "up");
  }

  /**
   * Gives host {@code k} its own {@code /etc/hosts} (every program run through {@link #exec} on it
   * sees these lines instead of the machine's), removed with the host.
   */
  public void hostsFile(int k, String content) throws IOException {
    Path dir = Path.of("/etc/netns", ns(k));
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("hosts"), content, StandardCharsets.UTF_8);
  }

  /** Host {@code k} can no longer send to {@code address} (a route to nowhere): cut off from that peer only. */
  public void blackhole(int k, String address) throws IOException, InterruptedException {
    ip("-n", ns(k), "route", "add", "blackhole", address + "/32");
  }

  public void unblackhole(int k, String address) throws IOException, InterruptedException {
    ip("-n", ns(k), "route", "del", "blackhole", address + "/32");
  }

  /**
   * Delays every packet host {@code k} sends by {@code micros} (netem on its side of the link), so
   * between two delayed hosts each way costs that much and a round trip twice.
   */
  public void delay(int k, long micros) throws IOException, InterruptedException {
    run(List.of("ip", "netns", "exec", ns(k), "tc", "qdisc", "replace", "dev", "eth0", "root", "netem",
        "delay", micros + "us", "limit", "100000"));
  }

  /** The netem settings on host {@code k}'s link as {@code tc} reports them (empty without a delay). */
  public String qdisc(int k) throws IOException, InterruptedException {
    return run(List.of("ip", "netns", "exec", ns(k), "tc", "qdisc", "show", "dev", "eth0"));
  }

  public int count() {
    return count;
  }

  private String bridge() {
    return "ixb" + id;
  }

  private String ns(int k) {
    return "ixs" + id + "h" + k;
  }

  private String link(int k) {
    return "ixv" + id + k;
  }

  private static void ip(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("ip"));
    command.addAll(List.of(args));
    run(command);
  }

  private static String run(List<String> command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IOException(String.join(" ", command) + " failed: " + out.trim());
    }
    return out;
  }

  /** The FORWARD rule letting this bridge's hosts reach each other whatever the chain's policy. */
  private List<String> forwardRule(String action) {
    return List.of("iptables", action, "FORWARD", "-i", bridge(), "-o", bridge(), "-m", "comment", "--comment",
        "indexfs NetHosts " + id, "-j", "ACCEPT");
  }

  private void acceptForwarding() throws InterruptedException {
    if (!iptablesInstalled()) {
      return; // no iptables, no FORWARD rules to get past
    }
    try {
      run(forwardRule("-I"));
      created.add("forward");
    } catch (IOException e) {
      // A machine without the netfilter modules has no FORWARD chain to pass either; a real block
      // shows as hosts that cannot reach each other.
      System.err.println("No FORWARD rule for " + bridge() + ": " + e.getMessage());
    }
  }

  /** Whether this instance holds an iptables FORWARD rule for its bridge (removed at {@link #close}). */
  public boolean forwardRuleAdded() {
    return created.contains("forward");
  }

  /** The bridge's name ({@code iptables -S FORWARD} shows its rule). */
  public String bridgeName() {
    return bridge();
  }

  private static boolean iptablesInstalled() {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/sbin:/sbin").split(":")) {
      if (Files.isExecutable(Path.of(dir, "iptables"))) {
        return true;
      }
    }
    return false;
  }

  private void deleteHostsFile(int k) {
    Path dir = Path.of("/etc/netns", ns(k));
    try {
      Files.deleteIfExists(dir.resolve("hosts"));
      Files.deleteIfExists(dir);
    } catch (IOException e) {
      System.err.println("Could not delete " + dir + ": " + e.getMessage());
    }
  }

  @Override
  public void close() {
    // Cleans up even when the test was interrupted (a timeout): the flag is put back afterwards.
    boolean interrupted = Thread.interrupted();
    try {
      remove();
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void remove() {
    // Deleting a namespace deletes its end of the veth pair, and with it the other end.
    for (int k = count - 1; k >= 0; k--) {
      if (created.remove(ns(k))) {
        try {
          ip("link", "del", link(k));
        } catch (IOException | InterruptedException e) {
          // Gone with its namespace already, or never made.
        }
        deleteHostsFile(k);
        try {
          ip("netns", "del", ns(k));
        } catch (IOException | InterruptedException e) {
          System.err.println("Could not delete " + ns(k) + ": " + e.getMessage());
        }
      }
    }
    if (created.remove("forward")) {
      try {
        run(forwardRule("-D"));
      } catch (IOException | InterruptedException e) {
        System.err.println("Could not remove the FORWARD rule of " + bridge() + ": " + e.getMessage());
      }
    }
    if (created.remove("bridge")) {
      try {
        ip("link", "del", bridge());
      } catch (IOException | InterruptedException e) {
        System.err.println("Could not delete " + bridge() + ": " + e.getMessage());
      }
    }
  }
}
