package org.indexfs.server.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.indexfs.common.ClusterPaths;
import org.indexfs.common.InodeIds;
import org.indexfs.proto.Request.OpCase;
import org.indexfs.server.admin.AdminContext;
import org.indexfs.server.metrics.OpStats;
import org.indexfs.server.metrics.RocksDbStats;
import org.indexfs.server.metrics.ServerGauges;
import org.indexfs.server.metrics.ServerMetrics;
import org.indexfs.server.metrics.SplitHistory;
import org.indexfs.server.peer.Peers;

/**
 * What the status page shows, as plain maps and lists: rendered as HTML by {@link StatusPage} and
 * served as {@code /status.json} for the page's live chart (and for scripts).
 */
final class StatusModel {
  private final AdminContext admin;
  private final LargestDirectories largest;

  StatusModel(AdminContext admin, LargestDirectories largest) {
    this.admin = admin;
    this.largest = largest;
  }

  Map<String, Object> snapshot(boolean withDirectories) throws IOException {
    ServerMetrics m = admin.metrics();
    ServerGauges g = m.gauges();
    Map<String, Object> s = new LinkedHashMap<>();
    Map<String, Object> overview = new LinkedHashMap<>();
    overview.put("cluster", m.cluster());
    overview.put("slot", m.getSlot());
    overview.put("address", admin.rpcAddress());
    overview.put("startedMs", m.startedMs());
    overview.put("nowMs", System.currentTimeMillis());
    overview.put("safeMode", g.safeMode());
    overview.put("entries", g.entries());
    overview.put("operationsServed", m.getOperationsServed());
    overview.put("redirects", m.getRedirects());
    overview.put("openFiles", g.openFiles());
    overview.put("entryLeaseTableSize", g.entryLeaseTableSize());
    overview.put("splitsDone", m.getSplits());
    overview.put("splitsInFlight", g.splitsInFlight());
    overview.put("groupCommitMeanSize", m.groupCommitMeanSize());
    overview.put("queueTimeP99Micros", m.ops().queueMicros().percentile(99));
    overview.put("dataUri", admin.ops().dataUri());
    s.put("overview", overview);
    s.put("rocksdb", rocksDb(g.rocksDb()));
    s.put("slots", slots());
    s.put("rates", m.rates().rates());
    s.put("operations", operations(m.ops()));
    s.put("recentSplits", splits(m.splitHistory()));
    if (withDirectories) {
      s.put("largestDirectories", largest.get());
    }
    // This slot's standbys (DESIGN §11): name and how far each replayed the journal.
    s.put("standbys", standbys());
    return s;
  }

  private List<String> standbys() {
    try {
      return admin.ha().standbys();
    } catch (java.io.IOException e) {
      return List.of("unknown (" + e.getMessage() + ")");
    }
  }

  private static Map<String, Object> rocksDb(RocksDbStats db) {
    Map<String, Object> r = new LinkedHashMap<>();
    if (db == null) {
      return r;
    }
    r.put("compactions", db.compactions());
    r.put("runningCompactions", db.runningCompactions());
    r.put("pendingCompactionBytes", db.pendingCompactionBytes());
    r.put("stallMicros", db.stallMicros());
    r.put("writeStopped", db.writeStopped() == 1);
    r.put("blockCacheHitRatio", db.blockCacheHitRatio());
    r.put("memtableBytes", db.memtableBytes());
    r.put("liveSstBytes", db.liveSstBytes());
    return r;
  }

  /** Every slot of the cluster as ZooKeeper lists it: owner, status page, entries it published. */
  private List<Map<String, Object>> slots() {
    Peers peers = admin.ops().peers();
    CuratorFramework curator = peers.curator();
    List<Map<String, Object>> out = new ArrayList<>();
    if (curator == null) {
      return out;
    }
    for (int k = 0; k < peers.slotCount(); k++) {
      Map<String, Object> slot = new LinkedHashMap<>();
      slot.put("slot", k);
      slot.put("owner", read(curator, ClusterPaths.slot(peers.cluster(), k)));
      slot.put("http", read(curator, ClusterPaths.http(peers.cluster(), k)));
      slot.put("entries", read(curator, ClusterPaths.load(peers.cluster(), k)));
      String epoch = read(curator, ClusterPaths.epoch(peers.cluster(), k));
      slot.put("epoch", epoch.isEmpty() ? "none" : epochOf(curator, peers.cluster(), k));
      slot.put("standbys", children(curator, ClusterPaths.standbys(peers.cluster(), k)));
      out.add(slot);
    }
    return out;
  }

  private static String epochOf(CuratorFramework curator, String cluster, int slot) {
    try {
      return String.valueOf(org.indexfs.server.membership.Epochs.read(curator, cluster, slot));
    } catch (java.io.IOException e) {
      return "unknown";
    }
  }

  private static List<String> children(CuratorFramework curator, String path) {
    try {
      return curator.getChildren().forPath(path);
    } catch (Exception none) {
      return List.of();
    }
  }

  private static String read(CuratorFramework curator, String path) {
    try {
      return new String(curator.getData().forPath(path), StandardCharsets.UTF_8);
    } catch (KeeperException.NoNodeException e) {
      return "";
    } catch (Exception e) {
      return "unknown (" + e.getClass().getSimpleName() + ")";
    }
  }

  private static List<Map<String, Object>> operations(OpStats ops) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map.Entry<OpCase, OpStats.Op> e : ops.ops().entrySet()) {
      OpStats.Op op = e.getValue();
      if (op.count() == 0) {
        continue;
      }
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("op", OpStats.name(e.getKey()));
      o.put("count", op.count());
      o.put("errors", op.errors());
      o.put("p50Micros", op.latencyMicros().percentile(50));
      o.put("p99Micros", op.latencyMicros().percentile(99));
      out.add(o);
    }
    return out;
  }

  private static List<Map<String, Object>> splits(SplitHistory history) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (SplitHistory.Split sp : history.recent()) {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("directory", InodeIds.format(sp.dirId()));
      o.put("partition", sp.child());
      o.put("entriesMoved", sp.entriesMoved());
      o.put("fromSlot", sp.fromSlot());
      o.put("toSlot", sp.toSlot());
      o.put("finishedMs", sp.finishedMs());
      o.put("durationMs", sp.durationMs());
      out.add(o);
    }
    return out;
  }
}
