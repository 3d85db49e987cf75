package org.indexfs.server.split;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;
import org.indexfs.common.giga.GigaIndex;
import org.indexfs.common.giga.PartitionBitmap;
import org.indexfs.common.schema.Inode;
import org.indexfs.server.ns.Namespace;

/**
 * Where a directory's entries are, as this slot knows (DESIGN §4): partition {@code i} of a
 * directory with zeroth slot {@code z} lives on slot {@code (z + i) mod N}, a slot holds at most
 * one partition of a directory, and each slot knows exactly the partitions it split off itself —
 * so work over a whole directory goes to its home (partition 0) and travels down the split tree.
 */
public final class Partitions {
  private final Namespace ns;
  private volatile IntSupplier slots = () -> 1;

  public Partitions(Namespace ns) {
    this.ns = ns;
  }

  public void useSlotCount(IntSupplier count) {
    this.slots = count;
  }

  public int slotCount() {
    return slots.getAsInt();
  }

  /** True when this slot holds a partition of {@code dir}. */
  public boolean holdsAny(Inode dir) throws IOException {
    return dir.zerothSlot == ns.slot() || ns.partition(dir.inodeId) != null;
  }

  /** The slot holding the entries of {@code dir} whose names hash to {@code hash}, as far as this slot knows. */
  public int ownerOf(Inode dir, long hash) throws IOException {
    if (slots.getAsInt() == 1) {
      return ns.slot();
    }
    if (!holdsAny(dir)) {
      return dir.zerothSlot;
    }
    int index = GigaIndex.partitionOf(hash, ns.bitmap(dir.inodeId));
    return GigaIndex.slotOf(dir.zerothSlot, index, slotCount());
  }

  /** The index of the partition of a directory with zeroth slot {@code zeroth} this slot would hold. */
  public int myIndex(int zeroth) {
    return Math.floorMod(ns.slot() - zeroth, slotCount());
  }

  /** True when every entry of {@code dir} is on this slot (its home, never split). */
  public boolean holdsWhole(Inode dir) throws IOException {
    return dir.zerothSlot == ns.slot() && ns.bitmap(dir.inodeId).count() == 1;
  }

  /** Slots of the partitions split off the one this slot holds of directory {@code dirId}. */
  public List<Integer> childSlots(long dirId, int zeroth) throws IOException {
    PartitionBitmap bitmap = ns.bitmap(dirId);
    int mine = myIndex(zeroth);
    List<Integer> out = new ArrayList<>();
    for (int r = GigaIndex.bitLength(mine); r < GigaIndex.MAX_RADIX; r++) {
      int child = mine + (1 << r);
      if (child >= slotCount()) {
        break;
      }
      if (bitmap.contains(child)) {
        out.add(GigaIndex.slotOf(zeroth, child, slotCount()));
      }
    }
    return out;
  }
}
