package org.indexfs.client.cache;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.indexfs.common.giga.PartitionBitmap;
import org.indexfs.proto.Ancestor;
import org.indexfs.proto.Resolution;

/**
 * The client's cache of directory entries (IndexFS §II-B): each entry a server walked through and
 * leased, kept until {@code sentAt + ttl − margin} by this process's monotonic clock. The time
 * is taken when the request was sent, before the server granted the lease, so the client's copy
 * always expires before the server stops waiting for it; no clocks are compared across machines.
 *
 * <p>Keyed by path. A cached chain is only used while each entry's parent id matches the entry
 * above it, so a directory renamed (or replaced) above a still-leased entry cuts the chain there.
 * Bounded: the least recently used entries go first.
 */
public final class ResolutionCache {
  private final int capacity;
  private final LongSupplier nanoClock;
  private final Map<String, Cached> entries;
  private final Map<Long, PartitionBitmap> bitmaps;

  private record Cached(Ancestor ancestor, long parentId, long expiresNanos) {}

  public ResolutionCache(int capacity, LongSupplier nanoClock) {
    this.capacity = capacity;
    this.nanoClock = nanoClock;
    this.entries = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Cached> eldest) {
        return size() > ResolutionCache.this.capacity;
      }
    };
    this.bitmaps = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<Long, PartitionBitmap> eldest) {
        return size() > ResolutionCache.this.capacity;
      }
    };
  }

  /**
   * The GIGA+ partitions of directory {@code dirId} this client has heard of, or null (only
   * partition 0). Partitions are only ever added, so maps from any server are OR-merged and kept
   * regardless of leases: a stale map costs a redirect, never a wrong answer.
   */
  public synchronized PartitionBitmap bitmap(long dirId) {
    return bitmaps.get(dirId);
  }

  private void mergeBitmap(Ancestor a) {
    if (a.getBitmap().isEmpty()) {
      return;
    }
    PartitionBitmap heard = PartitionBitmap.fromBytes(a.getBitmap().toByteArray());
    PartitionBitmap known = bitmaps.get(a.getInodeId());
    if (known == null) {
      bitmaps.put(a.getInodeId(), heard);
    } else {
      known.merge(heard);
    }
  }

  /**
   * The longest chain of unexpired cached directories for {@code names}, from the root down to
   * depth {@code maxDepth} at most (the parent of the final component, or the final one itself for
   * operations that look inside it). Empty when not even the root is cached.
   */
  public synchronized Resolution resolve(List<String> names, int maxDepth) {
    Resolution.Builder r = Resolution.newBuilder();
    long now = nanoClock.getAsLong();
    StringBuilder path = new StringBuilder();
    long parentId = 0;
    for (int depth = 0; depth <= maxDepth; depth++) {
      if (depth > 0) {
        path.append('/').append(names.get(depth - 1));
      }
      String key = depth == 0 ? "/" : path.toString();
      Cached c = entries.get(key);
      if (c == null || now - c.expiresNanos >= 0 || (depth > 0 && c.parentId != parentId)) {
        break;
      }
      r.addAncestors(c.ancestor);
      parentId = c.ancestor.getInodeId();
    }
    return r.build();
  }

  /** Caches what a server walked and leased for {@code names}; {@code sentNanos}: when the request left. */
  public synchronized void remember(List<String> names, Resolution walked, long sentNanos) {
    StringBuilder path = new StringBuilder();
    long parentId = 0;
    for (int depth = 0; depth < walked.getAncestorsCount(); depth++) {
      if (depth > 0) {
        path.append('/').append(names.get(depth - 1));
      }
      Ancestor a = walked.getAncestors(depth);
      mergeBitmap(a);
      long ttl = a.getLeaseMs();
      if (ttl > 0) {
        long margin = Math.min(ttl / 10, 100);
        entries.put(depth == 0 ? "/" : path.toString(),
            new Cached(a.toBuilder().clearLeaseMs().clearBitmap().build(), parentId,
                sentNanos + (ttl - margin) * 1_000_000L));
      }
      parentId = a.getInodeId();
    }
  }

  /** Drops the cached entries of {@code names}' directories (a server said they are stale). */
  public synchronized void forget(List<String> names) {
    StringBuilder path = new StringBuilder();
    entries.remove("/");
    for (String name : names) {
      path.append('/').append(name);
      entries.remove(path.toString());
    }
  }

  public synchronized int size() {
    return entries.size();
  }

  public int capacity() {
    return capacity;
  }
}
