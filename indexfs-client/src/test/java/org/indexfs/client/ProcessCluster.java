package org.indexfs.client;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.server.local.EmbeddedZooKeeper;
import org.indexfs.server.membership.ClusterFormat;

/**
 * A cluster of separate server processes on this machine, for kill -9 and SIGSTOP: per slot two
 * servers on their own directories (one takes the slot, the other stands by), the journal on a
 * local data directory, ZooKeeper in the test's process. With {@link NetHosts}, every server runs on
 * a host of its own (server {@code w} of slot {@code k} on host {@code 2k + w}) and ZooKeeper and the
 * clients on the test's side of the bridge.
 */
final class ProcessCluster implements AutoCloseable {
  /** One slot's two servers: {@code a} and {@code b} directories. */
  static final class Slot {
    final int slot;
    final ServerProcess[] servers = new ServerProcess[2];

    Slot(int slot) {
      this.slot = slot;
    }

    /** The server that serves the slot now (the last to print that it serves). */
    int active() {
      for (int i = 0; i < 2; i++) {
        if (servers[i] != null && servers[i].isServing()) {
          return i;
        }
      }
      return -1;
    }
  }

  final Path work;
  final String name;
  final EmbeddedZooKeeper zk;
  final List<Slot> slots = new ArrayList<>();
  private final Map<String, String> extra;
  private final NetHosts hosts;

  ProcessCluster(Path work, String name, int slotCount, Map<String, String> extra) throws Exception {
    this(work, name, slotCount, extra, null);
  }

  ProcessCluster(Path work, String name, int slotCount, Map<String, String> extra, NetHosts hosts) throws Exception {
    this.work = work;
    this.name = name;
    this.extra = extra;
    this.hosts = hosts;
    zk = hosts == null ? new EmbeddedZooKeeper(work.resolve("zookeeper").toFile(), 0)
        : new EmbeddedZooKeeper(work.resolve("zookeeper").toFile(), hosts.gateway(), 0);
    try (CuratorFramework c = TestData.asServers(zk.connectString())) {
      ClusterFormat.format(c, name, slotCount);
    }
    for (int k = 0; k < slotCount; k++) {
      Slot s = new Slot(k);
      slots.add(s);
      s.servers[0] = ServerProcess.start(exec(k, 0), conf(k, 0), log(k, 0));
    }
    for (Slot s : slots) {
      s.servers[1] = ServerProcess.startStandby(exec(s.slot, 1), conf(s.slot, 1), log(s.slot, 1));
    }
  }

  Map<String, String> conf(int slot, int which) {
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put(IndexFsConfig.SERVER_SLOT.name(), String.valueOf(slot));
    conf.put(IndexFsConfig.SERVER_DIR.name(), work.resolve("slot-" + slot + (which == 0 ? "a" : "b")).toString());
    conf.put(IndexFsConfig.SERVER_NAME.name(), "slot-" + slot + (which == 0 ? "a" : "b"));
    conf.put(IndexFsConfig.ZOOKEEPER_QUORUM.name(), zk.connectString());
    conf.put(IndexFsConfig.SECURITY_ZOOKEEPER_DIGEST.name(), TestData.SERVERS_DIGEST);
    conf.put(IndexFsConfig.CLUSTER_NAME.name(), name);
    conf.put(IndexFsConfig.DATA_URI.name(), work.resolve("data").toUri().toString().replaceAll("/$", ""));
    conf.put(IndexFsConfig.JOURNAL_ENABLED.name(), "true");
    conf.put(IndexFsConfig.JOURNAL_CHECKPOINT_RECORDS.name(), "5000");
    conf.put(IndexFsConfig.HOME_SYNC_INTERVAL_MS.name(), "500");
    conf.put(IndexFsConfig.HTTP_PORT.name(), "-1");
    if (hosts != null) {
      conf.put(IndexFsConfig.SERVER_BIND_HOST.name(), hosts.host(host(slot, which)));
    }
    conf.putAll(extra);
    return conf;
  }

  Path log(int slot, int which) {
    return work.resolve("slot-" + slot + (which == 0 ? "a" : "b") + ".log");
  }

  /** Starts server {@code which} of {@code slot} again, as a standby (after it was killed). */
  void restartAsStandby(int slot, int which) throws IOException, InterruptedException {
    slots.get(slot).servers[which] = ServerProcess.startStandby(exec(slot, which), conf(slot, which), log(slot, which));
  }

  /** The host that runs server {@code which} of {@code slot} (see {@link NetHosts}). */
  static int host(int slot, int which) {
    return 2 * slot + which;
  }

  private List<String> exec(int slot, int which) {
    return hosts == null ? List.of() : hosts.exec(host(slot, which));
  }

  @Override
  public void close() {
    // SIGKILL every process first, then wait: an interrupted test (a timeout) must not leave any behind.
    boolean interrupted = Thread.interrupted();
    try {
      for (Slot s : slots) {
        for (ServerProcess p : s.servers) {
          if (p != null) {
            p.destroy();
          }
        }
      }
      for (Slot s : slots) {
        for (ServerProcess p : s.servers) {
          if (p != null) {
            try {
              p.kill();
            } catch (InterruptedException e) {
              interrupted = true;
            }
          }
        }
      }
      zk.close();
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
