package org.indexfs.server.ns;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLongArray;
import org.indexfs.common.schema.Inode;

/**
 * Directory entries and partition records kept in memory (DESIGN §10), bounded and LRU.
 *
 * <p>Only writers holding the entry's lock publish values ({@link #publish}), always after their
 * batch is in RocksDB. Readers fill misses without any lock ({@link #fill}); to never keep a value
 * that a concurrent writer has already replaced, each writer first bumps a version counter of the
 * key's stripe, and a reader whose load overlapped such a bump drops what it put. Values are shared
 * and must be treated as immutable (callers copy before changing one).
 */
final class EntryCache {
  private static final int VERSION_STRIPES = 4096;
  /** A cached "this slot holds no partition of that directory". */
  static final Inode NO_PARTITION = new Inode();

  private record Key(long parentId, String name) {}

  /** Loads a value from the store on a miss (null: absent, nothing cached). */
  @FunctionalInterface
  interface Loader {
    Inode load() throws IOException;
  }

  private final Cache<Key, Inode> entries;
  private final Cache<Long, Inode> partitions;
  private final AtomicLongArray versions = new AtomicLongArray(VERSION_STRIPES);

  EntryCache(int maxEntries) {
    entries = CacheBuilder.newBuilder().maximumSize(Math.max(1, maxEntries)).concurrencyLevel(16).build();
    partitions = CacheBuilder.newBuilder().maximumSize(Math.max(1, maxEntries / 4)).concurrencyLevel(16).build();
  }

  private static int stripe(long id, String name) {
    int h = Long.hashCode(id * 0x9E3779B97F4A7C15L) ^ (name == null ? 0 : name.hashCode());
    return (h ^ (h >>> 16)) & (VERSION_STRIPES - 1);
  }

  /** The directory entry {@code name} in {@code parentId}; files are read from the store every time. */
  Inode entry(long parentId, String name, Loader loader) throws IOException {
    Key key = new Key(parentId, name);
    Inode cached = entries.getIfPresent(key);
    if (cached != null) {
      return cached;
    }
    int s = stripe(parentId, name);
    long before = versions.get(s);
    Inode loaded = loader.load();
    if (loaded != null && loaded.isDirectory()) {
      entries.asMap().putIfAbsent(key, loaded);
      if (versions.get(s) != before) {
        entries.invalidate(key);
      }
    }
    return loaded;
  }

  /** This slot's partition record of {@code dirId}, or null (absence is cached too). */
  Inode partition(long dirId, Loader loader) throws IOException {
    Inode cached = partitions.getIfPresent(dirId);
    if (cached != null) {
      return cached == NO_PARTITION ? null : cached;
    }
    int s = stripe(dirId, null);
    long before = versions.get(s);
    Inode loaded = loader.load();
    partitions.asMap().putIfAbsent(dirId, loaded == null ? NO_PARTITION : loaded);
    if (versions.get(s) != before) {
      partitions.invalidate(dirId);
    }
    return loaded;
  }

  /** A writer's new value for an entry (null: deleted); call after the write, under the entry's lock. */
  void publishEntry(long parentId, String name, Inode inode) {
    versions.incrementAndGet(stripe(parentId, name));
    Key key = new Key(parentId, name);
    if (inode != null && inode.isDirectory()) {
      entries.put(key, inode);
    } else {
      entries.invalidate(key);
    }
  }

  /** A writer's new partition record (null: dropped); call after the write. */
  void publishPartition(long dirId, Inode record) {
    versions.incrementAndGet(stripe(dirId, null));
    partitions.put(dirId, record == null ? NO_PARTITION : record);
  }

  /**
   * Forgets every cached entry of {@code dirId} and its partition record: after a range of it
   * moved in or out in bulk (a GIGA+ split), which bypasses per-entry publishing. Rare and linear.
   */
  void forgetDirectory(long dirId) {
    for (int s = 0; s < VERSION_STRIPES; s++) {
      versions.incrementAndGet(s);
    }
    entries.asMap().keySet().removeIf(k -> k.parentId() == dirId);
    partitions.invalidate(dirId);
  }

  /** {@link #forgetDirectory} for many directories in one pass (a bulk ingest touching a subtree). */
  void forgetDirectories(java.util.Set<Long> dirIds) {
    for (int s = 0; s < VERSION_STRIPES; s++) {
      versions.incrementAndGet(s);
    }
    entries.asMap().keySet().removeIf(k -> dirIds.contains(k.parentId()));
    partitions.invalidateAll(dirIds);
  }

  long size() {
    return entries.size();
  }
}
