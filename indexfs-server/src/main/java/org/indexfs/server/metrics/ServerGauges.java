package org.indexfs.server.metrics;

/**
 * What a server's metrics read from the rest of the server when they are collected: one narrow
 * interface, so the metrics reach no further into the server than this.
 */
public interface ServerGauges {
  /** Entries this slot holds (RocksDB's estimate). */
  long entries();

  /** Directory-entry leases remembered (the lease table, DESIGN §5). */
  long entryLeaseTableSize();

  /** Directory-entry leases granted with a non-zero TTL since start. */
  long entryLeasesGranted();

  /** Files open for writing here (write leases held). */
  long openFiles();

  /** GIGA+ splits recorded and not yet finished. */
  int splitsInFlight();

  /** Mutations written since start. */
  long mutations();

  /** WAL fsyncs since start: mutations / syncs is the mean group-commit size. */
  long walSyncs();

  /** True while the cluster is in safe mode. */
  boolean safeMode();

  /** The slot's RocksDB, for its statistics. */
  RocksDbStats rocksDb();

  /** Nothing bound yet (a server still starting). */
  ServerGauges NONE = new ServerGauges() {
    @Override
    public long entries() {
      return 0;
    }

    @Override
    public long entryLeaseTableSize() {
      return 0;
    }

    @Override
    public long entryLeasesGranted() {
      return 0;
    }

    @Override
    public long openFiles() {
      return 0;
    }

    @Override
    public int splitsInFlight() {
      return 0;
    }

    @Override
    public long mutations() {
      return 0;
    }

    @Override
    public long walSyncs() {
      return 0;
    }

    @Override
    public boolean safeMode() {
      return false;
    }

    @Override
    public RocksDbStats rocksDb() {
      return null;
    }
  };
}
