package org.indexfs.client.admin;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.indexfs.client.admin.FsckInventory.Entry;
import org.indexfs.client.admin.FsckInventory.Group;
import org.indexfs.client.admin.FsckInventory.Loc;
import org.indexfs.client.admin.FsckProblem.Kind;
import org.indexfs.common.InodeIds;
import org.indexfs.common.giga.GigaIndex;
import org.indexfs.common.giga.PartitionBitmap;
import org.indexfs.common.schema.NameHash;
import org.indexfs.proto.FsckLease;
import org.indexfs.proto.FsckPartition;

/**
 * {@code admin -fsck}: the namespace checked across slots (DESIGN §3, §4, §6, §7). Every entry's
 * directory exists and has its partition on the entry's slot; each directory's partitions are
 * recorded where its home and the GIGA+ bitmaps say, with the directory's attributes; bitmaps name
 * only partitions that exist and every partition is in its splitter's bitmap; inode ids are unique
 * and below their slot's allocation mark; open files hold write leases and leases belong to open
 * files; entries' data objects exist and every object is referred to.
 *
 * <p>Work a slot recorded durably and has not finished (a subtree being reclaimed, a home being
 * synced, a rename or split under way) is not a problem, and one fault is reported once: what
 * follows from it (the entries of a partition that went missing, the subtree below a directory
 * that does not exist) is counted in that problem's sentence, not reported again.
 */
public final class FsckCheck {
  private final FsckInventory inv;
  private final List<FsckProblem> problems = new ArrayList<>();
  /** Directories reachable from the root through directory entries, not under reclamation. */
  private final Set<Long> live = new HashSet<>();
  private final Set<Long> garbage = new HashSet<>();
  /** Partitions reported missing: dir id → slots. */
  private final Map<Long, Map<Integer, FsckProblem>> missing = new HashMap<>();

  private FsckCheck(FsckInventory inv) {
    this.inv = inv;
  }

  /** Reads the cluster from {@code source} and checks it. */
  public static FsckResult run(FsckSource source) throws IOException {
    FsckCheck check = new FsckCheck(FsckInventory.read(source));
    check.checkAll();
    return new FsckResult(check.problems, FsckResult.Counts.of(check.inv, check.live, check.garbage),
        check.inv.safeMode);
  }

  private void checkAll() {
    corruption();
    reachability();
    for (long dirId : live) {
      directory(inv.dirs.get(dirId));
    }
    orphanPartitions();
    groups();
    placement();
    duplicates();
    idMarks();
    leases();
    objects();
    listingIndex();
  }

  /**
   * Each slot's listing-order records (what {@code listStatus} pages through) agree with its entries
   * (what lookups read). In a directory being reclaimed or cut off, the fault that did it is reported.
   */
  private void listingIndex() {
    for (FsckInventory.IndexFault f : inv.indexFaults) {
      long dirId = f.loc().parent();
      if (!live.contains(dirId)) {
        // An entry there is already reported as an orphan; a record with no entry is not.
        if (f.stray() && !garbage.contains(dirId) && !inv.dirs.containsKey(dirId)) {
          add(Kind.INDEX_MISMATCH, null, "'" + f.loc().name() + "' in directory " + InodeIds.format(dirId)
              + ", which does not exist: " + f.what());
        }
        continue;
      }
      String path = child(pathOf(dirId), f.loc().name());
      add(Kind.INDEX_MISMATCH, path, path + ": " + f.what());
    }
  }

  private void add(Kind kind, String path, String message) {
    problems.add(new FsckProblem(kind, path, message));
  }

  private void corruption() {
    if (!inv.rootSeen) {
      add(Kind.CORRUPT_ENTRY, "/", "slot 0 holds no entry for the root directory");
    }
    for (String[] c : inv.corrupt) {
      add(c[1].equals("lease table") ? Kind.CORRUPT_RECORD : Kind.CORRUPT_ENTRY, null,
          "slot " + c[0] + ": " + c[1] + " cannot be read: " + c[2]);
    }
    inv.partitions.forEach((dirId, bySlot) -> bySlot.forEach((slot, p) -> {
      if (!p.getCorrupt().isEmpty()) {
        add(Kind.CORRUPT_RECORD, null, "slot " + slot + ": the partition record of directory "
            + InodeIds.format(dirId) + " cannot be read: " + p.getCorrupt());
      }
    }));
  }

  /**
   * Which directories hang off the root, which lie below a subtree being reclaimed, and which
   * lead back to themselves.
   */
  private void reachability() {
    Set<Long> roots = new HashSet<>(inv.reclaimingDirs);
    // A home sync whose entry is gone: the directory was removed and its home is told to drop it.
    inv.homeSyncs.forEach((dirId, sync) -> {
      Entry e = inv.dirs.get(dirId);
      if (e == null || e.loc().parent() != sync.getParentId() || !e.loc().name().equals(sync.getName())) {
        roots.add(dirId);
      }
    });
    live.add(InodeIds.ROOT);
    for (long dirId : inv.dirs.keySet()) {
      List<Long> chain = new ArrayList<>();
      java.util.Set<Long> onChain = new java.util.HashSet<>();
      long at = dirId;
      String fate = null;
      while (fate == null) {
        if (live.contains(at)) {
          fate = "live";
        } else if (garbage.contains(at) || roots.contains(at)) {
          fate = "garbage";
        } else if (onChain.contains(at)) {
          fate = "cycle";
        } else {
          chain.add(at);
          onChain.add(at);
          Entry e = inv.dirs.get(at);
          if (e == null) {
            fate = "broken"; // a directory nobody names: its entries are reported as orphans
          } else {
            at = e.loc().parent();
          }
        }
      }
      switch (fate) {
        case "live" -> live.addAll(chain);
        case "garbage" -> garbage.addAll(chain);
        case "cycle" -> {
          List<Long> loop = new ArrayList<>(chain.subList(chain.indexOf(at), chain.size()));
          // Named from the smallest id on, so the same cycle always reads the same.
          long smallest = loop.stream().min(Long::compareUnsigned).orElseThrow();
          java.util.Collections.rotate(loop, -loop.indexOf(smallest));
          List<String> names = new ArrayList<>();
          for (long id : loop) {
            names.add("'" + inv.dirs.get(id).loc().name() + "' (" + InodeIds.format(id) + ")");
          }
          add(Kind.CYCLE, null, "directories " + String.join(" → ", names)
              + " are each other's parents: they and everything below them are unreachable from /");
          garbage.addAll(chain); // reported once; nothing below is checked
        }
        default -> { }
      }
    }
  }

  /** The partitions of a live directory, and their records' agreement with its entry. */
  private void directory(Entry dir) {
    if (dir == null) {
      return; // the root's entry is checked with partitions like any other directory below
    }
    long id = dir.id();
    String path = pathOf(id);
    Map<Integer, FsckPartition> held = inv.partitions.getOrDefault(id, Map.of());
    boolean syncing = inv.homeSyncs.containsKey(id);
    int z = dir.zeroth();
    FsckPartition home = held.get(z);
    if (home == null || !home.getHasRecord()) {
      if (!syncing) {
        missing(id, 0, z, path, "its home");
      }
      return;
    }
    for (Map.Entry<Integer, FsckPartition> e : held.entrySet()) {
      FsckPartition p = e.getValue();
      if (!p.getHasRecord() || !p.getCorrupt().isEmpty()) {
        continue;
      }
      if (!syncing) {
        attributes(dir, path, e.getKey(), p);
      }
      if (p.getSealed() && !syncing) {
        add(Kind.SEALED_PARTITION, path, path + ": partition " + index(e.getKey(), z) + " on slot " + e.getKey()
            + " is sealed against new entries, but no removal of the directory is under way");
      }
    }
    if (!inv.splitting.contains(id)) {
      bitmaps(id, path, z, held);
    }
  }

  private void attributes(Entry dir, String path, int slot, FsckPartition p) {
    List<String> diffs = new ArrayList<>();
    if (p.getZerothSlot() != dir.zeroth()) {
      diffs.add("home slot " + p.getZerothSlot() + " (entry: " + dir.zeroth() + ")");
    }
    if (p.getPermission() != dir.status().getPermission()) {
      diffs.add(String.format("mode %o (entry: %o)", p.getPermission(), dir.status().getPermission()));
    }
    if (!p.getOwner().equals(dir.status().getOwner())) {
      diffs.add("owner " + p.getOwner() + " (entry: " + dir.status().getOwner() + ")");
    }
    if (!p.getGroup().equals(dir.status().getGroup())) {
      diffs.add("group " + p.getGroup() + " (entry: " + dir.status().getGroup() + ")");
    }
    if (!diffs.isEmpty()) {
      add(Kind.HOME_MISMATCH, path, path + ": the partition record on slot " + slot + " says "
          + String.join(", ", diffs));
    }
  }

  /** Each partition is in its splitter's bitmap and its own; each bit names a partition that exists. */
  private void bitmaps(long id, String path, int z, Map<Integer, FsckPartition> held) {
    Set<Integer> reported = new HashSet<>();
    for (Map.Entry<Integer, FsckPartition> e : held.entrySet()) {
      int slot = e.getKey();
      FsckPartition p = e.getValue();
      if (!p.getHasRecord() || !p.getCorrupt().isEmpty()) {
        continue;
      }
      int mine = index(slot, z);
      PartitionBitmap bitmap = FsckInventory.bitmapOf(p);
      if (!bitmap.contains(mine)) {
        add(Kind.BITMAP_MISMATCH, path, path + ": slot " + slot + " holds partition " + mine
            + ", but its bitmap " + bitmap + " does not include it");
      }
      for (int bit : bitmap.partitions()) {
        int owner = GigaIndex.slotOf(z, bit, inv.slots);
        FsckPartition there = held.get(owner);
        if (bit == 0 || (there != null && there.getHasRecord()) || !reported.add(bit)) {
          continue;
        }
        if (inv.groups.containsKey(new Loc(owner, id, ""))) {
          // Entries are there: the partition existed and its record is what went missing.
          missing(id, bit, owner, path, "named by the bitmap on slot " + slot);
        } else {
          add(Kind.BITMAP_MISMATCH, path, path + ": the bitmap on slot " + slot + " names partition " + bit
              + ", which slot " + owner + " does not hold");
        }
      }
      if (mine != 0) {
        int parent = GigaIndex.parentOf(mine);
        int splitter = GigaIndex.slotOf(z, parent, inv.slots);
        FsckPartition from = held.get(splitter);
        if (from != null && from.getHasRecord() && !FsckInventory.bitmapOf(from).contains(mine)) {
          add(Kind.BITMAP_MISMATCH, path, path + ": partition " + mine + " on slot " + slot
              + " is missing from the bitmap on slot " + splitter + " (partition " + parent + ", which split it off)");
        }
      }
    }
  }

  private void missing(long id, int index, int slot, String path, String what) {
    FsckProblem p = new FsckProblem(Kind.MISSING_PARTITION, path, path + ": slot " + slot + ", " + what
        + ", holds no partition record (partition " + index + ")");
    missing.computeIfAbsent(id, k -> new HashMap<>()).put(slot, p);
  }

  /** Partition records (and bitmaps) of directories that no live entry names. */
  private void orphanPartitions() {
    inv.partitions.forEach((dirId, bySlot) -> {
      if (live.contains(dirId) || garbage.contains(dirId) || inv.homeSyncs.containsKey(dirId)
          || inv.dirs.containsKey(dirId)) {
        return; // checked as a directory, being removed, being synced, or below a reported fault
      }
      bySlot.forEach((slot, p) -> {
        Group below = inv.groups.get(new Loc(slot, dirId, ""));
        add(Kind.ORPHAN_PARTITION, null, "slot " + slot + " holds a " + (p.getHasRecord() ? "partition record" : "bitmap")
            + " of directory " + InodeIds.format(dirId) + ", which no entry names"
            + (below == null ? "" : " (" + below.count + " entries below it there)"));
      });
    });
  }

  /** Entries on a slot that holds no partition of their directory. */
  private void groups() {
    inv.groups.forEach((where, g) -> {
      long dirId = where.parent();
      int slot = where.slot();
      FsckPartition p = inv.partitions.getOrDefault(dirId, Map.of()).get(slot);
      if ((p != null && p.getHasRecord()) || garbage.contains(dirId)) {
        return;
      }
      Map<Integer, FsckProblem> missingHere = missing.get(dirId);
      FsckProblem gone = missingHere == null ? null : missingHere.remove(slot);
      if (gone != null) {
        problems.add(new FsckProblem(gone.kind(), gone.path(), gone.message() + "; " + g.count
            + " entries there are unreachable (first: '" + g.first + "')"));
      } else if (live.contains(dirId) || inv.dirs.containsKey(dirId)) {
        if (live.contains(dirId)) {
          String path = pathOf(dirId);
          add(Kind.MISPLACED_ENTRY, path, g.count + " entries of " + path + " are on slot " + slot
              + ", which holds no partition of it (first: '" + g.first + "')");
        }
      } else if (!inv.partitions.containsKey(dirId)) {
        add(Kind.ORPHAN_ENTRY, null, g.count + " entries on slot " + slot + " are in directory "
            + InodeIds.format(dirId) + ", which does not exist (first: '" + g.first + "')");
      }
    });
    missing.values().forEach(bySlot -> problems.addAll(bySlot.values()));
  }

  /** Each entry on the slot of the partition its name hashes to, among the partitions that exist. */
  private void placement() {
    Map<Long, PartitionBitmap> existing = new HashMap<>();
    List<Entry> all = new ArrayList<>(inv.byId.values());
    all.addAll(inv.duplicates);
    Map<String, long[]> misplaced = new HashMap<>();
    for (Entry e : all) {
      long dirId = e.loc().parent();
      Entry dir = inv.dirs.get(dirId);
      int slot = e.loc().slot();
      FsckPartition here = inv.partitions.getOrDefault(dirId, Map.of()).get(slot);
      if (dirId == InodeIds.NO_PARENT || !live.contains(dirId) || here == null || !here.getHasRecord()
          || inv.splitting.contains(dirId) || (dir == null && dirId != InodeIds.ROOT)) {
        continue;
      }
      int z = dir == null ? 0 : dir.zeroth();
      PartitionBitmap valid = existing.computeIfAbsent(dirId, id -> existingPartitions(id, z));
      int index = GigaIndex.partitionOf(NameHash.of(e.loc().name()), valid);
      int owner = GigaIndex.slotOf(z, index, inv.slots);
      if (owner != slot) {
        String path = child(pathOf(dirId), e.loc().name());
        add(Kind.MISPLACED_ENTRY, path, path + " is on slot " + slot + " (partition " + index(slot, z)
            + "), but its name hashes to partition " + index + " on slot " + owner);
      }
    }
  }

  /** The partitions of a directory that are recorded where they belong (partition 0 always counts). */
  private PartitionBitmap existingPartitions(long dirId, int z) {
    PartitionBitmap b = PartitionBitmap.initial();
    inv.partitions.getOrDefault(dirId, Map.of()).forEach((slot, p) -> {
      if (p.getHasRecord() && p.getZerothSlot() == z) {
        b.add(index(slot, z));
      }
    });
    return b;
  }

  private void duplicates() {
    for (Entry dup : inv.duplicates) {
      Entry first = inv.byId.get(dup.id());
      if (inv.renamesOut.contains(dup.id()) || isGarbage(first) || isGarbage(dup)) {
        continue;
      }
      add(Kind.DUPLICATE_INODE, pathOf(dup), "inode " + InodeIds.format(dup.id()) + " is named twice: "
          + pathOf(first) + " (slot " + first.loc().slot() + ") and " + pathOf(dup) + " (slot " + dup.loc().slot() + ")");
    }
  }

  private void idMarks() {
    Map<Integer, Entry> highest = new HashMap<>();
    for (Entry e : inv.byId.values()) {
      int slot = InodeIds.slot(e.id());
      if (e.id() == InodeIds.ROOT || slot >= inv.slots || InodeIds.sequence(e.id()) < inv.idMarks[slot]) {
        continue;
      }
      Entry h = highest.get(slot);
      if (h == null || InodeIds.sequence(e.id()) > InodeIds.sequence(h.id())) {
        highest.put(slot, e);
      }
    }
    highest.forEach((slot, e) -> add(Kind.ID_ABOVE_MARK, pathOf(e), "slot " + slot + " allocates inode ids from "
        + slot + ":" + inv.idMarks[slot] + " on, but " + pathOf(e) + " already has " + InodeIds.format(e.id())
        + ": the allocator would hand it out again"));
  }

  private void leases() {
    for (int slot = 0; slot < inv.slots; slot++) {
      Map<Long, FsckLease> held = inv.leases.get(slot);
      for (FsckLease l : held.values()) {
        Entry e = inv.byId.get(l.getInodeId());
        boolean matches = e != null && e.open() && e.loc().slot() == slot && e.loc().parent() == l.getParentId()
            && e.loc().name().equals(l.getName());
        if (!matches && !(e != null && isGarbage(e))) {
          add(Kind.STRAY_LEASE, e == null ? null : pathOf(e), "slot " + slot + " holds a write lease of "
              + l.getHolder() + " on inode " + InodeIds.format(l.getInodeId()) + " ('" + l.getName() + "' in "
              + InodeIds.format(l.getParentId()) + "), which is not open for writing there");
        }
      }
    }
    for (Entry e : inv.byId.values()) {
      if (e.open() && !inv.leases.get(e.loc().slot()).containsKey(e.id()) && !isGarbage(e)) {
        add(Kind.OPEN_WITHOUT_LEASE, pathOf(e), pathOf(e) + " is open for writing, but slot " + e.loc().slot()
            + " holds no write lease on it");
      }
    }
  }

  private void objects() {
    Map<String, Long> stored = new HashMap<>();
    boolean listed = false;
    for (Map<String, Long> bySlot : inv.objects) {
      if (bySlot != null) {
        listed = true;
        stored.putAll(bySlot);
      }
    }
    if (!listed) {
      return; // no data tier: nothing can refer to an object
    }
    inv.objectRefs.forEach((name, e) -> {
      if (!stored.containsKey(name) && !isGarbage(e) && !e.open()) {
        add(Kind.MISSING_OBJECT, pathOf(e), pathOf(e) + " refers to data object " + name + ", which does not exist");
      }
    });
    stored.forEach((name, length) -> {
      if (!inv.objectRefs.containsKey(name) && !inv.spillObjects.contains(name) && !inv.reclaimingObjects.contains(name)) {
        add(Kind.UNREFERENCED_OBJECT, null, "data object " + name + " (" + length
            + " bytes) is referred to by no entry, writer or reclamation");
      }
    });
  }

  private boolean isGarbage(Entry e) {
    return e != null && garbage.contains(e.loc().parent());
  }

  private int index(int slot, int zeroth) {
    return Math.floorMod(slot - zeroth, inv.slots);
  }

  /**
   * The path of a directory through the directory entries (ids where the chain breaks). Linear in
   * the depth: it is asked for every directory, and trees may be thousands of levels deep.
   */
  String pathOf(long dirId) {
    if (dirId == InodeIds.ROOT) {
      return "/";
    }
    java.util.ArrayDeque<String> names = new java.util.ArrayDeque<>();
    String top = "";
    long at = dirId;
    // No chain is longer than there are directories; a longer one is a cycle.
    for (int depth = 0; depth <= inv.dirs.size() && at != InodeIds.ROOT; depth++) {
      Entry e = inv.dirs.get(at);
      if (e == null) {
        top = "<directory " + InodeIds.format(at) + ">";
        break;
      }
      names.push(e.loc().name());
      at = e.loc().parent();
    }
    StringBuilder path = new StringBuilder(top);
    for (String name : names) {
      path.append('/').append(name);
    }
    return path.toString();
  }

  private String pathOf(Entry e) {
    return e.loc().parent() == InodeIds.NO_PARENT ? "/" : child(pathOf(e.loc().parent()), e.loc().name());
  }

  private static String child(String dir, String name) {
    return (dir.equals("/") ? "" : dir) + "/" + name;
  }
}
