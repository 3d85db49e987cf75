package org.indexfs.server.metrics;

import org.indexfs.server.store.MetadataStore;
import org.rocksdb.HistogramType;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;

/**
 * A slot's RocksDB as operators watch it: compactions, write stalls and block-cache hits from
 * RocksDB's own {@link Statistics}, and the pending-work properties RocksDB keeps.
 */
public final class RocksDbStats {
  private final MetadataStore store;

  public RocksDbStats(MetadataStore store) {
    this.store = store;
  }

  private Statistics stats() {
    return store.statistics();
  }

  /** Compactions finished (the count of RocksDB's compaction-time histogram). */
  public long compactions() {
    return stats().getHistogramData(HistogramType.COMPACTION_TIME).getCount();
  }

  public long compactionReadBytes() {
    return stats().getTickerCount(TickerType.COMPACT_READ_BYTES);
  }

  public long compactionWriteBytes() {
    return stats().getTickerCount(TickerType.COMPACT_WRITE_BYTES);
  }

  /** Microseconds writers were stalled or slowed by RocksDB (too many L0 files, pending compaction). */
  public long stallMicros() {
    return stats().getTickerCount(TickerType.STALL_MICROS);
  }

  public long blockCacheHits() {
    return stats().getTickerCount(TickerType.BLOCK_CACHE_HIT);
  }

  public long blockCacheMisses() {
    return stats().getTickerCount(TickerType.BLOCK_CACHE_MISS);
  }

  /** Hits over lookups since start; 0 before the first lookup. */
  public double blockCacheHitRatio() {
    long hits = blockCacheHits();
    long total = hits + blockCacheMisses();
    return total == 0 ? 0 : (double) hits / total;
  }

  public long runningCompactions() {
    return store.property("rocksdb.num-running-compactions");
  }

  public long pendingCompactionBytes() {
    return store.property("rocksdb.estimate-pending-compaction-bytes");
  }

  /** 1 while RocksDB stops writes altogether. */
  public long writeStopped() {
    return store.property("rocksdb.is-write-stopped");
  }

  public long memtableBytes() {
    return store.property("rocksdb.cur-size-all-mem-tables");
  }

  public long liveSstBytes() {
    return store.property("rocksdb.live-sst-files-size");
  }
}
