package org.indexfs.server.http;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.indexfs.common.InodeIds;
import org.indexfs.common.giga.GigaIndex;
import org.indexfs.common.giga.PartitionBitmap;
import org.indexfs.common.schema.EntryKey;
import org.indexfs.common.schema.Inode;
import org.indexfs.server.ns.Namespace;
import org.indexfs.server.split.Partitions;
import org.rocksdb.RocksIterator;

/**
 * The directories with the most entries on this slot, with where their partitions are: one scan
 * of the slot's entries, kept for {@link #MAX_AGE_MS} so a page reload costs nothing. Paths are
 * built from the directory entries this slot holds; a name held by another slot shows as "…".
 *
 * <p>The page answers anyone who reaches the port, so it shows a directory's path only where an
 * anonymous user of HDFS's web UI could list it (issue 31): the directory and each of its ancestors
 * readable and searchable by others ({@code o+rx}, as a listing checks). Any other path, or one whose
 * ancestors this slot cannot judge, is shown as {@link #HIDDEN}, with its id and counts.
 */
public final class LargestDirectories {
  static final long MAX_AGE_MS = 10_000;
  private static final int TOP = 10;
  /** Beyond this many entries the scan stops and says so: the page must stay cheap. */
  private static final long SCAN_LIMIT = 2_000_000;
  /** A path an anonymous user could not list, or whose ancestors this slot cannot judge. */
  public static final String HIDDEN = "(not shown to anonymous users)";
  /** Others may read and search: {@code o+rx}. */
  private static final int OTHERS_LIST = 05;

  /** One directory: its path as far as known here, entries here, the partition held here and all known. */
  record Directory(String id, String path, long entries, int homeSlot, int partitionHere, List<String> partitions) {}

  record Result(List<Directory> directories, long scanned, boolean truncated, long computedMs) {}

  private final Namespace ns;
  private final Partitions partitions;
  private Result cached;

  LargestDirectories(Namespace ns, Partitions partitions) {
    this.ns = ns;
    this.partitions = partitions;
  }

  synchronized Result get() throws IOException {
    if (cached == null || System.currentTimeMillis() - cached.computedMs() > MAX_AGE_MS) {
      cached = compute();
    }
    return cached;
  }

  private Result compute() throws IOException {
    Map<Long, long[]> counts = new HashMap<>();
    Map<Long, EntryKey> names = new HashMap<>();
    Map<Long, Integer> modes = new HashMap<>();
    long scanned = 0;
    try (RocksIterator it = ns.store().iterator(ns.store().entries(), null)) {
      for (it.seekToFirst(); it.isValid() && scanned < SCAN_LIMIT; it.next(), scanned++) {
        byte[] key = it.key();
        if (key.length < EntryKey.HEADER_BYTES) {
          continue;
        }
        counts.computeIfAbsent(EntryKey.parentOf(key), k -> new long[1])[0]++;
        byte[] value = it.value();
        if (value.length > 1 && value[1] == Inode.TYPE_DIRECTORY) {
          try {
            Inode dir = Inode.decode(value);
            names.put(dir.inodeId, EntryKey.decode(key));
            modes.put(dir.inodeId, dir.permission);
          } catch (RuntimeException corrupt) {
            // fsck reports undecodable entries; the page just leaves the name out
          }
        }
      }
    }
    List<Map.Entry<Long, long[]>> top = new ArrayList<>(counts.entrySet());
    top.sort(Comparator.comparingLong((Map.Entry<Long, long[]> e) -> e.getValue()[0]).reversed());
    List<Directory> out = new ArrayList<>();
    for (Map.Entry<Long, long[]> e : top.subList(0, Math.min(TOP, top.size()))) {
      long dirId = e.getKey();
      if (dirId == InodeIds.NO_PARENT) {
        continue;
      }
      Inode record = ns.partition(dirId);
      int home = record == null ? -1 : record.zerothSlot;
      List<String> where = new ArrayList<>();
      int here = -1;
      if (record != null) {
        here = partitions.myIndex(home);
        PartitionBitmap bitmap = ns.bitmap(dirId);
        for (int i = 0; i < partitions.slotCount(); i++) {
          if (bitmap.contains(i)) {
            where.add(i + "@slot" + GigaIndex.slotOf(home, i, partitions.slotCount()));
          }
        }
      }
      String path = listableByAnyone(dirId, names, modes) ? path(dirId, names) : HIDDEN;
      out.add(new Directory(InodeIds.format(dirId), path, e.getValue()[0], home, here, where));
    }
    return new Result(out, scanned, scanned >= SCAN_LIMIT, System.currentTimeMillis());
  }

  /** True when others may list {@code dirId} and every directory above it, as far as this slot can tell. */
  private boolean listableByAnyone(long dirId, Map<Long, EntryKey> names, Map<Long, Integer> modes) throws IOException {
    long at = dirId;
    for (int depth = 0; depth <= 64; depth++) {
      Integer mode = modes.get(at);
      if (mode == null) {
        // Its access attributes as this slot's partition record of it keeps them (the root's, say).
        Inode record = ns.partition(at);
        mode = record == null ? null : record.permission;
      }
      if (mode == null || (mode & OTHERS_LIST) != OTHERS_LIST) {
        return false;
      }
      if (at == InodeIds.ROOT) {
        return true;
      }
      EntryKey k = names.get(at);
      if (k == null) {
        return false;
      }
      at = k.parentId();
    }
    return false;
  }

  private static String path(long dirId, Map<Long, EntryKey> names) {
    if (dirId == InodeIds.ROOT) {
      return "/";
    }
    StringBuilder path = new StringBuilder();
    long at = dirId;
    for (int depth = 0; depth < 64 && at != InodeIds.ROOT; depth++) {
      EntryKey k = names.get(at);
      if (k == null) {
        return "…" + path;
      }
      path.insert(0, "/" + k.name());
      at = k.parentId();
    }
    return path.toString();
  }
}
