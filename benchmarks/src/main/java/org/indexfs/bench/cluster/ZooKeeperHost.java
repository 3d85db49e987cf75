package org.indexfs.bench.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * ZooKeeper on a host of its own, without a slice (in a real cluster it is other machines): one
 * standalone server every IndexFS cluster of the run shares, under its own cluster name. Its
 * four-letter {@code mntr} command counts the requests it received, so the report can show what
 * each workload asked of it.
 */
final class ZooKeeperHost {
  static final String HOST = "zk";
  static final int PORT = 2181;

  private final String ip;

  private ZooKeeperHost(String ip) {
    this.ip = ip;
  }

  static ZooKeeperHost start(EmulatedHosts hosts, Path work, Path log4j) throws IOException, InterruptedException {
    Path data = Files.createDirectories(work.resolve("hosts").resolve(HOST).resolve("data"));
    hosts.start(HOST, "zookeeper", JavaCommand.unsliced("256m")
        .property("zookeeper.admin.enableServer", "false")
        .property("zookeeper.4lw.commands.whitelist", "ruok,mntr,srvr")
        .main(log4j, null, "org.apache.zookeeper.server.ZooKeeperServerMain",
            String.valueOf(PORT), data.toString(), "2000", "0"));   // tick 2 s, no connection limit per address
    ZooKeeperHost zk = new ZooKeeperHost(hosts.ip(HOST));
    long deadline = System.currentTimeMillis() + 120_000;
    while (true) {
      try {
        if (zk.command("ruok").startsWith("imok")) {
          return zk;
        }
      } catch (IOException notYet) {
        if (System.currentTimeMillis() > deadline) {
          throw new IOException("ZooKeeper did not answer at " + zk.connect() + " within 120 s", notYet);
        }
      }
      Thread.sleep(200);
    }
  }

  String connect() {
    return ip + ":" + PORT;
  }

  /** Requests (packets) ZooKeeper received so far, from its {@code mntr} output. */
  long requests() throws IOException {
    for (String line : command("mntr").split("\n")) {
      String[] kv = line.trim().split("\\s+");
      if (kv.length == 2 && kv[0].equals("zk_packets_received")) {
        return Long.parseLong(kv[1]);
      }
    }
    throw new IOException("ZooKeeper's mntr did not report zk_packets_received");
  }

  private String command(String word) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(ip, PORT), 2_000);
      s.setSoTimeout(5_000);
      OutputStream out = s.getOutputStream();
      out.write(word.getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
