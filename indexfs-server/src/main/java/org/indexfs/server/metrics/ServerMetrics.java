package org.indexfs.server.metrics;

import java.lang.management.ManagementFactory;
import javax.management.InstanceAlreadyExistsException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.indexfs.proto.Code;
import org.indexfs.proto.Request.OpCase;
import org.indexfs.server.Periodic;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One server's metrics: per-operation counts and latencies, queue times, splits, and what the
 * server's parts report through {@link ServerGauges}. Published three ways: as a Hadoop metrics2
 * source (so configured sinks — file, Graphite, Ganglia — and the {@code /prom} endpoint see it),
 * as an MXBean ({@code org.indexfs:type=Server,cluster=…,slot=…}), and in a periodic log line.
 * Several servers in one process (local mode, tests) register under distinct names.
 */
public final class ServerMetrics implements ServerMetricsMXBean, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ServerMetrics.class);

  private final String cluster;
  private final int slot;
  private final long startedMs = System.currentTimeMillis();
  private final OpStats ops = new OpStats();
  private final SplitHistory splits = new SplitHistory();
  private final RateHistory rates = new RateHistory();
  private final ObjectName name;
  private volatile ServerGauges gauges = ServerGauges.NONE;
  private volatile double groupCommitMean;
  private long windowMutations;
  private long windowSyncs;
  private long windowStartNanos = System.nanoTime();
  private Periodic ticker;
  private String sourceName;

  public ServerMetrics(String cluster, int slot) {
    this.cluster = cluster;
    this.slot = slot;
    this.name = register(cluster, slot);
  }

  private ObjectName register(String cluster, int slot) {
    MBeanServer mbeans = ManagementFactory.getPlatformMBeanServer();
    String base = "org.indexfs:type=Server,cluster=" + ObjectName.quote(cluster) + ",slot=" + slot;
    for (int instance = 0; instance < 100; instance++) {
      try {
        ObjectName n = new ObjectName(instance == 0 ? base : base + ",instance=" + instance);
        mbeans.registerMBean(this, n);
        return n;
      } catch (InstanceAlreadyExistsException taken) {
        // Another cluster of the same name in this process (tests): take the next instance number.
      } catch (JMException e) {
        LOG.warn("Metrics of slot {} are not on JMX: {}", slot, e.toString());
        return null;
      }
    }
    return null;
  }

  /**
   * Connects the server's parts and starts publishing: the metrics2 source, and a one-second tick
   * that samples the operation rate and closes a percentile window every {@code windowMs}.
   */
  public synchronized void start(ServerGauges bound, long windowMs) {
    this.gauges = bound;
    windowMutations = bound.mutations();
    windowSyncs = bound.walSyncs();
    sourceName = HadoopMetrics.register("IndexFsServer-" + cluster + "-slot" + slot,
        "IndexFS metadata server of slot " + slot, new ServerMetricsSource(this));
    ticker = new Periodic("indexfs-metrics-tick-" + slot, 1000, true, () -> tick(windowMs));
    ticker.start();
  }

  private synchronized void tick(long windowMs) {
    rates.sample(ops.served());
    if (System.nanoTime() - windowStartNanos >= windowMs * 1_000_000L) {
      rollWindow();
    }
  }

  /** Closes the current percentile window now (tests, and the tick). */
  public synchronized void rollWindow() {
    ops.roll();
    long m = gauges.mutations();
    long s = gauges.walSyncs();
    groupCommitMean = s > windowSyncs ? (double) (m - windowMutations) / (s - windowSyncs) : 0;
    windowMutations = m;
    windowSyncs = s;
    windowStartNanos = System.nanoTime();
  }

  public ObjectName objectName() {
    return name;
  }

  public String cluster() {
    return cluster;
  }

  public long startedMs() {
    return startedMs;
  }

  /** The dispatcher's one call per request. */
  public void served(OpCase op, Code code, long queueNanos, long serviceNanos) {
    ops.record(op, code, queueNanos, serviceNanos);
  }

  public void splitDone(SplitHistory.Split split) {
    splits.record(split);
  }

  public OpStats ops() {
    return ops;
  }

  public SplitHistory splitHistory() {
    return splits;
  }

  public RateHistory rates() {
    return rates;
  }

  public ServerGauges gauges() {
    return gauges;
  }

  /** Mutations per WAL fsync in the last window (group commit, DESIGN §10); 0 without syncs. */
  public double groupCommitMeanSize() {
    return groupCommitMean;
  }

  @Override
  public int getSlot() {
    return slot;
  }

  @Override
  public long getOperationsServed() {
    return ops.served();
  }

  @Override
  public long getRedirects() {
    return ops.redirects();
  }

  @Override
  public long getSplits() {
    return splits.done();
  }

  @Override
  public long getEntries() {
    return gauges.entries();
  }

  @Override
  public long getLeasesGranted() {
    return gauges.entryLeasesGranted();
  }

  /** The line the server logs at each interval. */
  public String summary() {
    return "slot " + slot + ": operations served " + getOperationsServed() + ", redirects " + getRedirects()
        + ", splits " + getSplits() + ", entries " + getEntries() + ", leases granted " + getLeasesGranted()
        + ", open files " + gauges.openFiles();
  }

  @Override
  public void close() {
    Periodic t;
    String source;
    synchronized (this) {
      t = ticker;
      source = sourceName;
      ticker = null;
      sourceName = null;
    }
    if (t != null) {
      t.close();
    }
    if (source != null) {
      HadoopMetrics.unregister(source);
    }
    if (name != null) {
      try {
        ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
      } catch (JMException e) {
        LOG.debug("Metrics of slot {} were already unregistered", slot);
      }
    }
  }
}
