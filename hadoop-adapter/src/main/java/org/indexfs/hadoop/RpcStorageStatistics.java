package org.indexfs.hadoop;

import java.util.Iterator;
import java.util.Map;
import org.apache.hadoop.fs.StorageStatistics;
import org.indexfs.client.RpcCounters;

/**
 * The client's RPCs per operation as Hadoop {@link StorageStatistics} of an {@code indexfs://}
 * FileSystem: {@code rpc} (all), {@code rpc.<operation>}, and the re-routings
 * {@code resolve.elsewhere} / {@code resolve.stale}. With a warm cache each metadata call is one RPC.
 */
final class RpcStorageStatistics extends StorageStatistics {
  static final String NAME = "IndexFsRpcStatistics";

  private final RpcCounters counters;

  RpcStorageStatistics(RpcCounters counters) {
    super(NAME);
    this.counters = counters;
  }

  @Override
  public String getScheme() {
    return IndexFileSystem.SCHEME;
  }

  @Override
  public Iterator<LongStatistic> getLongStatistics() {
    return counters.snapshot().entrySet().stream()
        .map((Map.Entry<String, Long> e) -> new LongStatistic(e.getKey(), e.getValue())).iterator();
  }

  @Override
  public Long getLong(String key) {
    return counters.get(key);
  }

  @Override
  public boolean isTracked(String key) {
    return key.equals(RpcCounters.TOTAL) || key.startsWith("rpc.") || key.startsWith("resolve.");
  }

  @Override
  public void reset() {
    counters.reset();
  }
}
