package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.FileStatus;
import org.indexfs.server.local.LocalCluster;

/**
 * The four-slot cluster the bulk-insertion tests across slots share (a {@link BulkCluster}), and
 * the helpers they all use: listings, refused creates, entries per slot, a directory filled until
 * it has split and settled.
 */
final class BulkSlots extends BulkCluster {
  static final int SLOTS = 4;

  private BulkSlots(Path workDir, LocalCluster cluster) throws IOException {
    super(workDir, cluster);
  }

  /** Four slots named {@code name}, with {@code settings} (config key → value). */
  static BulkSlots start(Path workDir, String name, Map<String, String> settings) throws IOException {
    return new BulkSlots(workDir, startCluster(workDir, name, SLOTS, settings));
  }

  /** The names another client lists in {@code dir}, each once. */
  Set<String> names(String dir) throws IOException {
    var all = reader.listAll(dir).stream().map(FileStatus::getName).collect(Collectors.toList());
    Set<String> out = new TreeSet<>(all);
    assertEquals(all.size(), out.size(), "each name of " + dir + " listed once: " + all);
    return out;
  }

  /** Another client's create of {@code path} is refused while the subtree is localized. */
  void refused(String path) {
    IndexFsException e = assertThrows(IndexFsException.class, () -> TestData.createClosed(reader, path));
    assertEquals(Code.SUBTREE_LOCALIZED, e.code(), path + ": " + e.getMessage());
  }

  /** Entries of {@code dirId} on each slot. */
  long[] entriesBySlot(long dirId) {
    long[] out = new long[SLOTS];
    for (int slot = 0; slot < SLOTS; slot++) {
      out[slot] = Slots.entriesOn(cluster, slot, dirId);
    }
    return out;
  }

  Set<Integer> slotsHolding(long dirId) {
    Set<Integer> out = new TreeSet<>();
    long[] n = entriesBySlot(dirId);
    for (int slot = 0; slot < SLOTS; slot++) {
      if (n[slot] > 0) {
        out.add(slot);
      }
    }
    return out;
  }

  /**
   * Waits until {@code dirId} has entries on at least {@code minSlots} slots, {@code total} in
   * all, unchanged for a second (a split in flight has the moving range on both slots).
   */
  String awaitSettled(long dirId, int minSlots, long total) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 60_000;
    String last = "";
    for (int stable = 0; stable < 10; ) {
      assertTrue(System.currentTimeMillis() < deadline, "directory " + dirId + " splits and settles: " + last);
      long[] n = entriesBySlot(dirId);
      int holding = 0;
      long sum = 0;
      for (long x : n) {
        holding += x > 0 ? 1 : 0;
        sum += x;
      }
      String now = java.util.Arrays.toString(n);
      stable = holding >= minSlots && sum == total && now.equals(last) ? stable + 1 : 0;
      last = now;
      Thread.sleep(100);
    }
    return last;
  }

  /** Entries of {@code dirId} on all slots together. */
  long entriesEverywhere(long dirId) {
    long n = 0;
    for (long x : entriesBySlot(dirId)) {
      n += x;
    }
    return n;
  }

  /** Waits up to a minute until the slots hold {@code total} entries of {@code dirId}; {@code why} names the wait. */
  void awaitEntries(long dirId, long total, String why) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 60_000;
    while (entriesEverywhere(dirId) < total) {
      assertTrue(System.currentTimeMillis() < deadline, why);
      Thread.sleep(200);
    }
  }

  /** True when no slot holds a staged share or an undecided publish. */
  boolean noPendingPublish() {
    return noMetaUnder("bulk.tx/", "bulk.part/", "bulk/");
  }

  /** True when no slot's meta column holds a key under any of {@code prefixes}. */
  boolean noMetaUnder(String... prefixes) {
    for (int slot = 0; slot < SLOTS; slot++) {
      org.indexfs.server.store.MetadataStore store = cluster.server(slot).namespace().store();
      for (String prefix : prefixes) {
        byte[] p = prefix.getBytes(StandardCharsets.UTF_8);
        try (org.rocksdb.RocksIterator it = store.iterator(store.meta(), null)) {
          it.seek(p);
          if (it.isValid() && org.indexfs.common.schema.Bytes.startsWith(it.key(), p)) {
            return false;
          }
        }
      }
    }
    return true;
  }
}
