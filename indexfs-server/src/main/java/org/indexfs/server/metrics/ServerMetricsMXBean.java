package org.indexfs.server.metrics;

/** What a metadata server reports over JMX ({@code org.indexfs:type=Server,cluster=<c>,slot=<k>}). */
public interface ServerMetricsMXBean {
  int getSlot();

  /** Client and peer calls answered, redirects excluded. */
  long getOperationsServed();

  /** Calls answered "continue at another slot" (the path left this slot). */
  long getRedirects();

  /** Directory splits done by this server (GIGA+). */
  long getSplits();

  /** Entries this slot holds (RocksDB's estimate). */
  long getEntries();

  /** Directory-entry leases granted with a non-zero TTL. */
  long getLeasesGranted();
}
