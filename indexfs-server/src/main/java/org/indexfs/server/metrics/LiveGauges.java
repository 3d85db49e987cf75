package org.indexfs.server.metrics;

import java.util.function.BooleanSupplier;
import org.indexfs.server.filelease.LeaseTable;
import org.indexfs.server.lease.EntryLeases;
import org.indexfs.server.ns.Namespace;
import org.indexfs.server.split.SplitManager;

/** {@link ServerGauges} read from a running server's parts. */
public final class LiveGauges implements ServerGauges {
  private final Namespace ns;
  private final EntryLeases entryLeases;
  private final LeaseTable fileLeases;
  private final SplitManager splits;
  private final BooleanSupplier safeMode;
  private final RocksDbStats rocksDb;

  public LiveGauges(Namespace ns, EntryLeases entryLeases, LeaseTable fileLeases, SplitManager splits,
      BooleanSupplier safeMode) {
    this.ns = ns;
    this.entryLeases = entryLeases;
    this.fileLeases = fileLeases;
    this.splits = splits;
    this.safeMode = safeMode;
    this.rocksDb = new RocksDbStats(ns.store());
  }

  @Override
  public long entries() {
    return Math.max(0, ns.store().estimatedEntries());
  }

  @Override
  public long entryLeaseTableSize() {
    return entryLeases.size();
  }

  @Override
  public long entryLeasesGranted() {
    return entryLeases.grants();
  }

  @Override
  public long openFiles() {
    return fileLeases.count();
  }

  @Override
  public int splitsInFlight() {
    return splits.inFlight();
  }

  @Override
  public long mutations() {
    return ns.mutationCount();
  }

  @Override
  public long walSyncs() {
    return ns.groupCommit().syncCount();
  }

  @Override
  public boolean safeMode() {
    return safeMode.getAsBoolean();
  }

  @Override
  public RocksDbStats rocksDb() {
    return rocksDb;
  }
}
