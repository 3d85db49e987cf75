package org.indexfs.server.bulk;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.indexfs.common.giga.PartitionBitmap;
import org.indexfs.common.schema.Bytes;
import org.indexfs.common.schema.EntryKey;
import org.indexfs.common.schema.Inode;
import org.indexfs.server.ns.Namespace;
import org.rocksdb.RocksIterator;

/**
 * The directories of a localized subtree that are on the server (its root, and every directory
 * published or made inside it), each with its path below the root: a publish may only put entries
 * into them. Built once per localization by walking the subtree on this slot (a localized subtree
 * stays on its home slot: splits wait until the localization ends), then kept up to date by each
 * publish.
 */
final class SubtreeDirs {
  /** Where a directory is: its parent, name and path below the localized root ("" for the root). */
  record Place(long parentId, String name, String relPath) {}

  /** A directory of the subtree homed on another slot: that slot, where its entry is, the entry. */
  record Away(int slot, long parentId, String name, Inode inode) {}

  /** A directory of the subtree that has split (GIGA+): its zeroth slot and the partitions this slot knows. */
  record Split(int zerothSlot, PartitionBitmap bitmap) {}

  private final Map<Long, Place> dirs = new ConcurrentHashMap<>();
  /**
   * Directories walked here that split before the localization, the scan's root included: their
   * other partitions' slots are told of the localization too ({@link Mirrors#pushSubtree}).
   */
  private final Map<Long, Split> split = new ConcurrentHashMap<>();
  private long rootId;
  /**
   * Directories of the subtree whose entries are here but which are homed on another slot (made
   * before the localization, placed by load): their own entries, and any directory below them,
   * are on that slot, which is told of the localization ({@link Mirrors#pushSubtree}).
   */
  private final Map<Long, Away> elsewhere = new ConcurrentHashMap<>();
  /** Every directory whose entry the walk found here, wherever it is homed (a mirror slot tells its home). */
  private final Map<Long, Away> found = new ConcurrentHashMap<>();

  private SubtreeDirs() {}

  static SubtreeDirs scan(Namespace ns, long rootId) {
    SubtreeDirs s = new SubtreeDirs();
    s.rootId = rootId;
    s.dirs.put(rootId, new Place(0, "", ""));
    s.noteSplit(ns, rootId, -1);
    Deque<Long> todo = new ArrayDeque<>();
    todo.add(rootId);
    while (!todo.isEmpty()) {
      long dir = todo.poll();
      String base = s.dirs.get(dir).relPath();
      byte[] prefix = EntryKey.prefix(dir);
      try (RocksIterator it = ns.store().iterator(ns.store().entries(), null)) {
        for (it.seek(prefix); it.isValid() && Bytes.startsWith(it.key(), prefix); it.next()) {
          // The type byte is at offset 1 of the value: no need to decode the rest.
          if (it.value()[1] == Inode.TYPE_DIRECTORY) {
            EntryKey k = EntryKey.decode(it.key());
            Inode d = Inode.decode(it.value());
            s.dirs.put(d.inodeId, new Place(dir, k.name(), base + "/" + k.name()));
            todo.add(d.inodeId);
            s.noteSplit(ns, d.inodeId, d.zerothSlot);
            Away found = new Away(d.zerothSlot, dir, k.name(), d);
            s.found.put(d.inodeId, found);
            if (d.zerothSlot != ns.slot()) {
              s.elsewhere.put(d.inodeId, found);
            }
          }
        }
      }
    }
    return s;
  }

  private void noteSplit(Namespace ns, long dirId, int zerothSlot) {
    try {
      PartitionBitmap b = ns.bitmap(dirId);
      if (b.count() > 1) {
        if (zerothSlot < 0) {
          Inode record = ns.partition(dirId);
          zerothSlot = record == null ? ns.slot() : record.zerothSlot;
        }
        split.put(dirId, new Split(zerothSlot, b.copy()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Only the root: a partition's slot of a split root validates entries of the root alone. */
  static SubtreeDirs rootOnly(long rootId) {
    SubtreeDirs s = new SubtreeDirs();
    s.rootId = rootId;
    s.dirs.put(rootId, new Place(0, "", ""));
    return s;
  }

  /** Directories of the subtree found here but homed on another slot. */
  Map<Long, Away> elsewhere() {
    return elsewhere;
  }

  /** Every directory whose entry the walk found here, with where it is homed. */
  Map<Long, Away> found() {
    return found;
  }

  /** Directories walked here that have split, the scan's root included. */
  Map<Long, Split> split() {
    return split;
  }

  /**
   * True when the subtree is on other slots too: its root split (GIGA+; its partitions' slots walk
   * their part of it), or directories below the root homed there or split before the
   * localization. Those slots hold a mirror of the localization.
   */
  boolean reachesOtherSlots() {
    return !elsewhere.isEmpty() || !split.isEmpty();
  }

  /**
   * Where each directory a walk over slots found is below the root ({@link Mirrors#pushSubtree};
   * parents come first), those whose parent is not reached left out.
   */
  Map<Long, Place> placesOf(Iterable<Away> away) {
    Map<Long, Place> out = new java.util.LinkedHashMap<>();
    for (Away a : away) {
      Place parent = dirs.containsKey(a.parentId()) ? dirs.get(a.parentId()) : out.get(a.parentId());
      if (parent != null) {
        out.put(a.inode().inodeId, new Place(a.parentId(), a.name(), parent.relPath() + "/" + a.name()));
      }
    }
    return out;
  }

  /**
   * Adds the directories homed on {@code slot} that the walk found with their entries elsewhere
   * (below a directory homed on another slot, or in a partition of the root there): they are this
   * subtree's here from the grant on, so they take no split until it ends. Returns those new here.
   */
  java.util.List<Long> adoptHomed(Mirrors.Reach reach, int slot) {
    java.util.List<Long> added = new java.util.ArrayList<>();
    placesOf(reach.away().values()).forEach((id, place) -> {
      if (reach.away().get(id).slot() == slot && dirs.putIfAbsent(id, place) == null) {
        added.add(id);
      }
    });
    return added;
  }

  Place get(long dirId) {
    return dirs.get(dirId);
  }

  boolean contains(long dirId) {
    return dirs.containsKey(dirId);
  }

  void add(long dirId, Place place) {
    dirs.put(dirId, place);
  }

  Iterable<Long> ids() {
    return dirs.keySet();
  }
}
