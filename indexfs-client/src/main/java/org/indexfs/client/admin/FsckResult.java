package org.indexfs.client.admin;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.indexfs.proto.FsckPartition;

/** What fsck found: the problems, what it counted, and whether the cluster held still (safe mode). */
public record FsckResult(List<FsckProblem> problems, Counts counts, boolean safeMode) {
  public boolean healthy() {
    return problems.isEmpty();
  }

  /** The namespace as fsck saw it. */
  public record Counts(int slots, long directories, long files, long openFiles, long partitions,
      long splitDirectories, long objects, long objectBytes, long reclaimingEntries, long reclaimingObjects) {

    static Counts of(FsckInventory inv, Set<Long> live, Set<Long> garbage) {
      long dirs = 0;
      long files = 0;
      long open = 0;
      long reclaiming = 0;
      for (FsckInventory.Entry e : inv.byId.values()) {
        if (garbage.contains(e.loc().parent())) {
          reclaiming++;
        } else if (e.directory()) {
          dirs += live.contains(e.id()) ? 1 : 0;
        } else {
          files++;
          open += e.open() ? 1 : 0;
        }
      }
      long partitions = 0;
      long split = 0;
      for (Map<Integer, FsckPartition> bySlot : inv.partitions.values()) {
        long records = bySlot.values().stream().filter(FsckPartition::getHasRecord).count();
        partitions += records;
        split += records > 1 ? 1 : 0;
      }
      long objects = 0;
      long bytes = 0;
      for (Map<String, Long> bySlot : inv.objects) {
        if (bySlot != null) {
          objects += bySlot.size();
          bytes += bySlot.values().stream().mapToLong(Long::longValue).sum();
        }
      }
      return new Counts(inv.slots, dirs, files, open, partitions, split, objects, bytes, reclaiming,
          inv.reclaimingObjects.size());
    }
  }
}
