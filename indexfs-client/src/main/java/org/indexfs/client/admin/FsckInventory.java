package org.indexfs.client.admin;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.indexfs.common.InodeIds;
import org.indexfs.common.giga.PartitionBitmap;
import org.indexfs.common.schema.NameHash;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.FileType;
import org.indexfs.proto.FsckEntry;
import org.indexfs.proto.FsckLease;
import org.indexfs.proto.FsckName;
import org.indexfs.proto.FsckPage;
import org.indexfs.proto.FsckPartition;
import org.indexfs.proto.FsckPending;

/**
 * Everything fsck knows about a cluster, read once from every slot: partition records and bitmaps,
 * leases, durable pending work, id marks, and every entry — kept as small records (about a hundred
 * bytes per entry) so the checks can look across slots.
 */
final class FsckInventory {
  /** Where an entry is: slot, directory, name. */
  record Loc(int slot, long parent, String name) {}

  /** An entry as fsck needs it; {@code status} only for directories. */
  record Entry(Loc loc, long id, boolean directory, int zeroth, boolean open, String object, FileStatus status) {}

  /** A group of entries on one slot under one directory. */
  static final class Group {
    long count;
    String first;
  }

  int slots;
  final List<FsckPage> metas = new ArrayList<>();
  /** dir id → slot → its partition record (or bitmap only). */
  final Map<Long, Map<Integer, FsckPartition>> partitions = new HashMap<>();
  /** slot → inode → lease. */
  final List<Map<Long, FsckLease>> leases = new ArrayList<>();
  final Set<Long> reclaimingDirs = new HashSet<>();
  final Set<String> reclaimingObjects = new HashSet<>();
  /** dir id → its pending home sync (entry name, parent). */
  final Map<Long, FsckPending> homeSyncs = new HashMap<>();
  final Set<Long> renamesOut = new HashSet<>();
  final Set<Long> splitting = new HashSet<>();
  final long[] idMarks;
  boolean safeMode = true;

  /** inode id → its entry (the first one seen, when two name it). */
  final Map<Long, Entry> byId = new HashMap<>();
  /** directory id → its directory entry. */
  final Map<Long, Entry> dirs = new HashMap<>();
  /** Entries naming an id already seen. */
  final List<Entry> duplicates = new ArrayList<>();
  /** Entries that could not be decoded: slot, key, why. */
  final List<String[]> corrupt = new ArrayList<>();
  /** (slot, parent) → entries there. */
  final Map<Loc, Group> groups = new LinkedHashMap<>();
  /** Objects named by entries → the entry. */
  final Map<String, Entry> objectRefs = new HashMap<>();
  final Set<String> spillObjects = new HashSet<>();
  /** slot → object name → length; null entry: no data tier. */
  final List<Map<String, Long>> objects = new ArrayList<>();
  boolean rootSeen;
  /** Listing-order records that disagree with the entries on their slot: where, and how. */
  final List<IndexFault> indexFaults = new ArrayList<>();

  /** A listing-order record that does not say what the entry at {@code loc} says ({@code stray}: there is no entry). */
  record IndexFault(Loc loc, boolean stray, String what) {}

  private FsckInventory(int slots) {
    this.slots = slots;
    this.idMarks = new long[slots];
  }

  static FsckInventory read(FsckSource source) throws IOException {
    FsckInventory inv = new FsckInventory(source.slots());
    for (int s = 0; s < inv.slots; s++) {
      inv.meta(s, source.meta(s));
    }
    for (int s = 0; s < inv.slots; s++) {
      ByteString cursor = ByteString.EMPTY;
      do {
        FsckPage page = source.entries(s, cursor);
        for (FsckEntry e : page.getEntriesList()) {
          inv.entry(s, e);
        }
        cursor = page.getCursor();
      } while (!cursor.isEmpty());
      cursor = ByteString.EMPTY;
      do {
        FsckPage page = source.strayNames(s, cursor);
        for (FsckName n : page.getStrayNamesList()) {
          inv.indexFaults.add(new IndexFault(new Loc(s, n.getParentId(), n.getName()), true, n.getCorrupt().isEmpty()
              ? "slot " + s + " lists it (inode " + InodeIds.format(n.getInodeId()) + ") but holds no entry for it"
              + ": listings show a name that does not exist"
              : "slot " + s + " holds a listing record that cannot be read: " + n.getCorrupt()));
        }
        cursor = page.getCursor();
      } while (!cursor.isEmpty());
    }
    for (int s = 0; s < inv.slots; s++) {
      inv.objects.add(source.objects(s));
    }
    return inv;
  }

  private void meta(int slot, FsckPage page) {
    metas.add(page);
    safeMode &= page.getSafeMode();
    idMarks[slot] = page.getIdHighWater();
    for (FsckPartition p : page.getPartitionsList()) {
      partitions.computeIfAbsent(p.getDirId(), k -> new TreeMap<>()).put(slot, p);
    }
    Map<Long, FsckLease> mine = new HashMap<>();
    for (FsckLease l : page.getLeasesList()) {
      if (l.getCorrupt().isEmpty()) {
        mine.put(l.getInodeId(), l);
        if (!l.getSpillObject().isEmpty()) {
          spillObjects.add(l.getSpillObject());
        }
      } else {
        corrupt.add(new String[] {String.valueOf(slot), "lease table", l.getCorrupt()});
      }
    }
    leases.add(mine);
    for (FsckPending p : page.getPendingList()) {
      switch (p.getKind()) {
        case RECLAIM_DIRECTORY -> reclaimingDirs.add(p.getId());
        case RECLAIM_OBJECT -> reclaimingObjects.add(p.getName());
        case HOME_SYNC -> homeSyncs.put(p.getId(), p);
        case RENAME_OUT -> renamesOut.add(p.getId());
        case SPLIT -> splitting.add(p.getId());
        default -> { }
      }
    }
  }

  private void entry(int slot, FsckEntry e) {
    byte[] key = e.getKey().toByteArray();
    if (!e.getCorrupt().isEmpty()) {
      corrupt.add(new String[] {String.valueOf(slot), describeKey(key), e.getCorrupt()});
      return;
    }
    ByteBuffer b = ByteBuffer.wrap(key);
    long parent = b.getLong();
    long hash = b.getLong();
    String name = new String(key, 16, key.length - 16, StandardCharsets.UTF_8);
    if (parent == InodeIds.NO_PARENT && name.isEmpty()) {
      rootSeen = true;
    } else if (hash != NameHash.of(name)) {
      corrupt.add(new String[] {String.valueOf(slot), describeKey(key), "its key's name hash does not match its name"});
      return;
    }
    FileStatus st = e.getStatus();
    Loc loc = new Loc(slot, parent, name);
    if (!e.getIndex().isEmpty()) {
      indexFaults.add(new IndexFault(loc, false, "slot " + slot + ": " + e.getIndex()));
    }
    boolean dir = st.getType() == FileType.DIRECTORY;
    // Only directories' attributes are compared (with their partition records): files keep none.
    Entry entry = new Entry(loc, st.getInodeId(), dir, st.getZerothSlot(), st.getUnderConstruction(),
        st.getDataObject(), dir ? st : null);
    if (byId.putIfAbsent(entry.id(), entry) != null) {
      duplicates.add(entry);
    }
    if (dir) {
      dirs.putIfAbsent(entry.id(), entry);
    }
    if (!entry.object().isEmpty()) {
      objectRefs.putIfAbsent(entry.object(), entry);
    }
    if (parent != InodeIds.NO_PARENT) {
      Group g = groups.computeIfAbsent(new Loc(slot, parent, ""), k -> new Group());
      if (g.count++ == 0) {
        g.first = name;
      }
    }
  }

  static String describeKey(byte[] key) {
    if (key.length < 16) {
      return "key " + java.util.HexFormat.of().formatHex(key);
    }
    long parent = ByteBuffer.wrap(key).getLong();
    return "entry '" + new String(key, 16, key.length - 16, StandardCharsets.UTF_8) + "' of directory "
        + InodeIds.format(parent);
  }

  /** The bitmap slot {@code slot} keeps for {@code p}: the stored one, or partition 0 alone. */
  static PartitionBitmap bitmapOf(FsckPartition p) {
    return p.getBitmap().isEmpty() ? PartitionBitmap.initial() : PartitionBitmap.fromBytes(p.getBitmap().toByteArray());
  }
}
