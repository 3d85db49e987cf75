package org.indexfs.server.metrics;

import java.util.Map;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsInfo;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.Interns;
import org.indexfs.proto.Request.OpCase;

/**
 * A server's metrics as a Hadoop metrics2 source. Two record kinds, both tagged with the cluster
 * and slot: {@code IndexFsServer} (the server as a whole, its RocksDB, leases, splits, group
 * commit) and {@code IndexFsOperation} (one per operation served, tagged {@code Op}), which the
 * Prometheus sink turns into {@code index_fs_operation_count{op="create",slot="0",…}}.
 * Percentiles are microseconds over the last window ({@code indexfs.metrics.window-ms}).
 */
final class ServerMetricsSource implements MetricsSource {
  static final String CONTEXT = "indexfs";
  private static final MetricsInfo CLUSTER = Interns.info("Cluster", "IndexFS cluster name");
  private static final MetricsInfo SLOT = Interns.info("Slot", "Slot served");
  private static final MetricsInfo OP = Interns.info("Op", "Operation");
  private static final double[] PERCENTILES = {50, 75, 90, 95, 99};

  private final ServerMetrics m;

  ServerMetricsSource(ServerMetrics metrics) {
    this.m = metrics;
  }

  private static MetricsInfo info(String name, String description) {
    return Interns.info(name, description);
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    ServerGauges g = m.gauges();
    OpStats ops = m.ops();
    MetricsRecordBuilder r = collector.addRecord("IndexFsServer").setContext(CONTEXT)
        .tag(CLUSTER, m.cluster()).tag(SLOT, String.valueOf(m.getSlot()))
        .addCounter(info("OperationsServed", "Calls answered, redirects excluded"), ops.served())
        .addCounter(info("Redirects", "Calls answered 'continue at another slot'"), ops.redirects())
        .addGauge(info("Entries", "Entries held (RocksDB estimate)"), g.entries())
        .addGauge(info("SafeMode", "1 while the cluster is in safe mode"), g.safeMode() ? 1 : 0)
        .addGauge(info("OpenFiles", "Files open for writing (write leases held)"), g.openFiles())
        .addGauge(info("EntryLeaseTableSize", "Directory-entry leases remembered"), g.entryLeaseTableSize())
        .addCounter(info("EntryLeasesGranted", "Directory-entry leases granted"), g.entryLeasesGranted())
        .addCounter(info("SplitsDone", "GIGA+ splits finished here"), m.splitHistory().done())
        .addCounter(info("SplitEntriesMoved", "Entries moved to other slots by splits"),
            m.splitHistory().entriesMoved())
        .addGauge(info("SplitsInFlight", "GIGA+ splits recorded and not finished"), g.splitsInFlight())
        .addCounter(info("Renames", "Renames answered here"), ops.op(OpCase.RENAME).count())
        .addCounter(info("CrossSlotRenamesIn", "Cross-slot renames landed here"), ops.op(OpCase.RENAME_IN).count())
        .addCounter(info("Mutations", "Mutations written"), g.mutations())
        .addCounter(info("WalSyncs", "WAL fsyncs"), g.walSyncs())
        .addGauge(info("GroupCommitMeanSize", "Mutations per WAL fsync in the last window"), m.groupCommitMeanSize());
    LatencyWindow queue = ops.queueMicros();
    for (double p : PERCENTILES) {
      r.addGauge(info("QueueTimeP" + (int) p + "Micros", "Wait for a handler, percentile of the last window"),
          queue.percentile(p));
    }
    RocksDbStats db = g.rocksDb();
    if (db != null) {
      r.addCounter(info("RocksdbCompactions", "Compactions finished"), db.compactions())
          .addCounter(info("RocksdbCompactionReadBytes", "Bytes read by compactions"), db.compactionReadBytes())
          .addCounter(info("RocksdbCompactionWriteBytes", "Bytes written by compactions"), db.compactionWriteBytes())
          .addGauge(info("RocksdbRunningCompactions", "Compactions running"), db.runningCompactions())
          .addGauge(info("RocksdbPendingCompactionBytes", "Estimated bytes compaction still has to rewrite"),
              db.pendingCompactionBytes())
          .addCounter(info("RocksdbStallMicros", "Microseconds writes were stalled"), db.stallMicros())
          .addGauge(info("RocksdbWriteStopped", "1 while RocksDB stops writes"), db.writeStopped())
          .addCounter(info("RocksdbBlockCacheHits", "Block cache hits"), db.blockCacheHits())
          .addCounter(info("RocksdbBlockCacheMisses", "Block cache misses"), db.blockCacheMisses())
          .addGauge(info("RocksdbBlockCacheHitRatio", "Block cache hits over lookups since start"),
              db.blockCacheHitRatio())
          .addGauge(info("RocksdbMemtableBytes", "Bytes in memtables"), db.memtableBytes())
          .addGauge(info("RocksdbLiveSstBytes", "Bytes of live SST files"), db.liveSstBytes());
    }
    for (Map.Entry<OpCase, OpStats.Op> e : ops.ops().entrySet()) {
      OpStats.Op op = e.getValue();
      if (op.count() == 0) {
        continue;
      }
      MetricsRecordBuilder o = collector.addRecord("IndexFsOperation").setContext(CONTEXT)
          .tag(CLUSTER, m.cluster()).tag(SLOT, String.valueOf(m.getSlot())).tag(OP, OpStats.name(e.getKey()))
          .addCounter(info("Count", "Calls answered"), op.count())
          .addCounter(info("Errors", "Calls answered with an error"), op.errors());
      for (double p : PERCENTILES) {
        o.addGauge(info("LatencyP" + (int) p + "Micros", "Service time, percentile of the last window"),
            op.latencyMicros().percentile(p));
      }
    }
  }
}
