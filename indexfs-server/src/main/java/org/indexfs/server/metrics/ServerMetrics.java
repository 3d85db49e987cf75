package org.indexfs.server.metrics;

import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import javax.management.InstanceAlreadyExistsException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One server's counters (issue: operations served, redirects, splits, entries held), registered
 * as an MXBean and logged at an interval by the server. Several servers in one process (local
 * mode, tests) register under distinct names.
 */
public final class ServerMetrics implements ServerMetricsMXBean, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ServerMetrics.class);

  private final int slot;
  private final LongAdder operations = new LongAdder();
  private final LongAdder redirects = new LongAdder();
  private final LongAdder splits = new LongAdder();
  private final LongSupplier entries;
  private final LongSupplier leasesGranted;
  private final ObjectName name;

  public ServerMetrics(String cluster, int slot, LongSupplier entries, LongSupplier leasesGranted) {
    this.slot = slot;
    this.entries = entries;
    this.leasesGranted = leasesGranted;
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

  public ObjectName objectName() {
    return name;
  }

  public void operationServed() {
    operations.increment();
  }

  public void redirected() {
    redirects.increment();
  }

  public void splitDone() {
    splits.increment();
  }

  @Override
  public int getSlot() {
    return slot;
  }

  @Override
  public long getOperationsServed() {
    return operations.sum();
  }

  @Override
  public long getRedirects() {
    return redirects.sum();
  }

  @Override
  public long getSplits() {
    return splits.sum();
  }

  @Override
  public long getEntries() {
    return entries.getAsLong();
  }

  @Override
  public long getLeasesGranted() {
    return leasesGranted.getAsLong();
  }

  /** The line the server logs at each interval. */
  public String summary() {
    return "slot " + slot + ": operations served " + getOperationsServed() + ", redirects " + getRedirects()
        + ", splits " + getSplits() + ", entries " + getEntries() + ", leases granted " + getLeasesGranted();
  }

  @Override
  public void close() {
    if (name != null) {
      try {
        ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
      } catch (JMException e) {
        LOG.debug("Metrics of slot {} were already unregistered", slot);
      }
    }
  }
}
