package org.indexfs.hadoop.admin;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import org.indexfs.client.admin.AdminClient;
import org.indexfs.common.InodeIds;
import org.indexfs.proto.PartitionSize;
import org.indexfs.proto.SlotBalance;

/**
 * {@code -balance [-top N]}: what placement (power of two choices over homes) and GIGA+ splitting
 * made of the load, counted exactly on every slot: entries, directories homed, partitions split in,
 * the busiest slot's share over the mean, and the largest directories with their partitions.
 */
final class BalanceCommand {
  private final AdminClient admin;
  private final PrintStream out;

  BalanceCommand(AdminClient admin, PrintStream out) {
    this.admin = admin;
    this.out = out;
  }

  int run(String[] args) throws IOException {
    int top = 10;
    if (args.length == 2 && args[0].equals("-top")) {
      top = Integer.parseInt(args[1]);
    } else if (args.length != 0) {
      throw new IllegalArgumentException("expected [-top <n>]");
    }
    List<SlotBalance> slots = new ArrayList<>();
    for (int slot = 0; slot < admin.slotCount(); slot++) {
      slots.add(admin.balance(slot, top));
    }
    long entries = slots.stream().mapToLong(SlotBalance::getEntries).sum();
    out.println("Slots: " + slots.size() + ", entries: " + entries + " (counted)");
    busiest("entries", slots, SlotBalance::getEntries);
    busiest("operations served", slots, SlotBalance::getOperationsServed);
    out.println();
    out.printf("%6s %12s %7s %12s %18s %12s %12s%n", "slot", "entries", "share", "dirs homed",
        "partitions split in", "splits done", "operations");
    for (SlotBalance b : slots) {
      out.printf("%6d %12d %6.1f%% %12d %18d %12d %12d%n", b.getSlot(), b.getEntries(),
          entries == 0 ? 0.0 : 100.0 * b.getEntries() / entries, b.getDirectoriesHomed(), b.getPartitionsSplitIn(),
          b.getSplitsDone(), b.getOperationsServed());
    }
    largest(slots, top);
    return 0;
  }

  /** The slot with the most of {@code what}, and its share over the mean (1.00 = perfectly even). */
  private void busiest(String what, List<SlotBalance> slots, ToLongFunction<SlotBalance> f) {
    SlotBalance max = slots.stream().max(Comparator.comparingLong(f)).orElseThrow();
    double mean = slots.stream().mapToLong(f).average().orElse(0);
    out.printf("Busiest slot by %s: %d with %d, %.2f x the mean (%.1f)%n", what, max.getSlot(), f.applyAsLong(max),
        mean == 0 ? 0.0 : f.applyAsLong(max) / mean, mean);
  }

  private void largest(List<SlotBalance> slots, int top) throws IOException {
    Map<Long, List<String>> where = new LinkedHashMap<>();
    Map<Long, long[]> total = new LinkedHashMap<>();
    for (SlotBalance b : slots) {
      for (PartitionSize p : b.getLargestList()) {
        total.computeIfAbsent(p.getDirId(), k -> new long[2])[0] += p.getEntries();
        total.get(p.getDirId())[1]++;
        where.computeIfAbsent(p.getDirId(), k -> new ArrayList<>())
            .add("slot " + b.getSlot() + ": " + p.getEntries() + " (partition " + p.getIndex() + ")");
      }
    }
    if (total.isEmpty()) {
      return;
    }
    List<Long> dirs = new ArrayList<>(total.keySet());
    dirs.sort(Comparator.comparingLong((Long d) -> total.get(d)[0]).reversed());
    DirectoryNames names = DirectoryNames.read(admin);
    out.println();
    out.println("Largest directories (entries per partition, among each slot's " + top + " largest):");
    for (long dir : dirs.subList(0, Math.min(top, dirs.size()))) {
      out.println("  " + names.pathOf(dir) + " (" + InodeIds.format(dir) + "): " + total.get(dir)[0] + " entries in "
          + total.get(dir)[1] + " partition(s) — " + String.join(", ", where.get(dir)));
    }
  }
}
