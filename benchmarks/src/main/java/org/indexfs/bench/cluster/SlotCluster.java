package org.indexfs.bench.cluster;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.server.membership.ClusterFormat;

/**
 * One IndexFS cluster of the run: N slot servers, each its own process ({@code IndexFsServer},
 * as {@code bin/indexfs server} runs it) on its own host and slice, with its own data directory,
 * {@code indexfs.wal.sync=true} and the audit log on. Their data tier is a directory all hosts
 * share (the files of the workloads are empty and stay inline). Each server's {@code /prom}
 * metrics tell what crossed slots.
 */
final class SlotCluster {
  /** Calls only servers make to each other (the Dispatcher's server-only operations), as /prom names them. */
  static final Set<String> PEER_OPS = Set.of("partition", "renameIn", "referenced", "quota");
  static final int RPC_PORT = 8020;
  static final int HTTP_PORT = 9871;

  final String name;
  final int slots;
  final List<String> hosts;
  private final List<HostProgram> servers = new ArrayList<>();
  private final EmulatedHosts net;
  private final String zookeeper;
  /** {@code indexfs.KEY=VALUE} settings every slot server gets ({@code --server-conf}). */
  private final List<String> serverConf;
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  SlotCluster(EmulatedHosts net, String zookeeper, int slots, List<String> serverConf) {
    this.net = net;
    this.zookeeper = zookeeper;
    this.serverConf = List.copyOf(serverConf);
    this.slots = slots;
    this.name = clusterName(slots);
    List<String> h = new ArrayList<>();
    for (int k = 0; k < slots; k++) {
      h.add(hostName(slots, k));
    }
    this.hosts = List.copyOf(h);
  }

  static String clusterName(int slots) {
    return "ifs" + slots;
  }

  static String hostName(int slots, int slot) {
    return clusterName(slots) + "-slot" + slot;
  }

  /** Records the slot count in ZooKeeper ({@code bin/indexfs format}) and starts every server. */
  void start(Path work, Path log4j, String heap, int processors) throws Exception {
    // Formatted as the servers (issue 31): they refuse a cluster root another identity could change.
    try (CuratorFramework curator = org.indexfs.server.security.ServerZooKeeper.digest(SERVERS_DIGEST)
        .connect(zookeeper, 60_000)) {
      ClusterFormat.format(curator, name, slots);
    }
    Path objects = Files.createDirectories(work.resolve("data-tier").resolve(name));
    for (int k = 0; k < slots; k++) {
      String host = hosts.get(k);
      Path dir = work.resolve("hosts").resolve(host);
      Path logs = Files.createDirectories(dir.resolve("logs"));
      List<String> cmd = JavaCommand.server(heap, processors)
          .property("indexfs.log.dir", logs.toString())
          .main(log4j, null, "org.indexfs.server.IndexFsServer",
              "--slot", String.valueOf(k), "--dir", dir.resolve("data").toString(), "--zookeeper", zookeeper,
              "--cluster", name, "--data-uri", objects.toUri().toString(),
              "-D", IndexFsConfig.SERVER_BIND_HOST.name() + "=" + net.ip(host),
              "-D", IndexFsConfig.SERVER_PORT.name() + "=" + RPC_PORT,
              "-D", IndexFsConfig.HTTP_PORT.name() + "=" + HTTP_PORT,
              "-D", IndexFsConfig.WAL_SYNC.name() + "=true",
              "-D", IndexFsConfig.AUDIT_ENABLED.name() + "=true",
              "-D", IndexFsConfig.SECURITY_ZOOKEEPER_DIGEST.name() + "=" + SERVERS_DIGEST);
      cmd.addAll(ClusterSettings.groupMappingArgs());
      for (String kv : serverConf) {
        cmd.add("-D");
        cmd.add(kv);
      }
      servers.add(net.start(host, host, cmd));
    }
    for (HostProgram s : servers) {
      s.await(l -> l.startsWith("INDEXFS_SERVER_READY "), 0, 300_000);
    }
  }

  List<HostProgram> servers() {
    return servers;
  }

  /** The servers' ZooKeeper identity in the emulated cluster (simple mode, as bin/indexfs local sets one). */
  private static final String SERVERS_DIGEST = "indexfs:bench-cluster";

  String uri() {
    return "indexfs://" + name + "/";
  }

  /** What a client needs to reach this cluster. */
  Map<String, String> clientConf() {
    Map<String, String> c = new LinkedHashMap<>();
    c.put(String.format(IndexFsConfig.CLUSTER_ZOOKEEPER_PATTERN, name), zookeeper);
    c.put("fs.AbstractFileSystem.indexfs.impl", "org.indexfs.hadoop.IndexFs");
    return c;
  }

  /** Counters of every slot's /prom that matter to the report, summed over the slots. */
  record Counters(long served, long redirects, long peerCalls, long splits, long entriesMoved, long walSyncs,
      long leaseRenewals, Map<String, Long> byOp) {
    Counters minus(Counters o) {
      Map<String, Long> d = new java.util.TreeMap<>();
      byOp.forEach((k, v) -> d.put(k, v - o.byOp.getOrDefault(k, 0L)));
      return new Counters(served - o.served, redirects - o.redirects, peerCalls - o.peerCalls, splits - o.splits,
          entriesMoved - o.entriesMoved, walSyncs - o.walSyncs, leaseRenewals - o.leaseRenewals, d);
    }
  }

  private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][\\w:]*)(\\{([^}]*)\\})?\\s+(\\S+)");
  private static final Pattern OP_LABEL = Pattern.compile("op=\"([^\"]*)\"");

  Counters counters() throws IOException, InterruptedException {
    long served = 0;
    long redirects = 0;
    long peer = 0;
    long splits = 0;
    long moved = 0;
    long syncs = 0;
    long renewals = 0;
    Map<String, Long> byOp = new java.util.TreeMap<>();
    for (String host : hosts) {
      String body = prom(host);
      for (String line : body.split("\n")) {
        Matcher m = SAMPLE.matcher(line);
        if (line.startsWith("#") || !m.find()) {
          continue;
        }
        long v = (long) Double.parseDouble(m.group(4));
        switch (m.group(1)) {
          case "index_fs_server_operations_served" -> served += v;
          case "index_fs_server_redirects" -> redirects += v;
          case "index_fs_server_splits_done" -> splits += v;
          case "index_fs_server_split_entries_moved" -> moved += v;
          case "index_fs_server_wal_syncs" -> syncs += v;
          case "index_fs_operation_count" -> {
            Matcher label = OP_LABEL.matcher(m.group(3) == null ? "" : m.group(3));
            String op = label.find() ? label.group(1) : "";
            byOp.merge(op, v, Long::sum);
            if (PEER_OPS.contains(op)) {
              peer += v;
            } else if (op.equals("renewLease")) {
              renewals += v;
            }
          }
          default -> { }
        }
      }
    }
    return new Counters(served, redirects, peer, splits, moved, syncs, renewals, byOp);
  }

  private String prom(String host) throws IOException, InterruptedException {
    HttpRequest r = HttpRequest.newBuilder(URI.create("http://" + net.ip(host) + ":" + HTTP_PORT + "/prom"))
        .timeout(Duration.ofSeconds(30)).build();
    HttpResponse<String> resp = HTTP.send(r, HttpResponse.BodyHandlers.ofString());
    if (resp.statusCode() != 200) {
      throw new IOException(host + "/prom answered " + resp.statusCode());
    }
    return resp.body();
  }
}
