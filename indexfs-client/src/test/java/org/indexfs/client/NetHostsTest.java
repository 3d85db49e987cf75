package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The fault harness's hosts reach each other on any machine: a Docker engine sets iptables'
 * FORWARD policy to DROP, which would drop everything between two hosts on the bridge; NetHosts
 * adds an ACCEPT rule for its own bridge and takes it away with the bridge.
 */
class NetHostsTest {
  @Test
  void hostsReachEachOtherWhateverTheForwardPolicyAndLeaveNoRuleBehind() throws Exception {
    assumeTrue(NetHosts.available(), "needs root and ip netns (network namespaces)");
    assumeTrue(onPath("iptables") && onPath("ping"), "needs iptables and ping");
    String rule;
    try (NetHosts hosts = new NetHosts(2)) {
      rule = "-i " + hosts.bridgeName() + " -o " + hosts.bridgeName();
      assertTrue(hosts.forwardRuleAdded(), "a FORWARD rule for the bridge");
      assertTrue(run("iptables", "-S", "FORWARD").contains(rule), "the rule is in the chain");
      List<String> ping = new ArrayList<>(hosts.exec(0));
      ping.addAll(List.of("ping", "-c", "2", "-W", "2", "-q", hosts.host(1)));
      String out = run(ping.toArray(String[]::new));
      assertTrue(out.contains("2 received"), "host 0 reaches host 1: " + out);
    }
    assertFalse(run("iptables", "-S", "FORWARD").contains(rule), "the rule left with the bridge");
  }

  private static boolean onPath(String tool) {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/sbin:/usr/bin").split(":")) {
      if (Files.isExecutable(Path.of(dir, tool))) {
        return true;
      }
    }
    return false;
  }

  private static String run(String... command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor();
    return out;
  }
}
