package org.indexfs.server.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.indexfs.common.InodeIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Blocks reserved for bulk-insertion clients never meet the ids the slot hands out, before or after a restart. */
class InodeAllocatorTest {
  @TempDir
  Path dir;

  @Test
  void reservedBlocksAreNeverHandedOutAgain() throws Exception {
    long first;
    long last;
    try (MetadataStore store = MetadataStore.open(dir)) {
      InodeAllocator ids = new InodeAllocator(store, 3);
      long before = ids.next();
      first = ids.reserve(10_000);
      assertEquals(3, InodeIds.slot(first));
      for (int i = 0; i < 20_000; i++) {
        long id = ids.next();
        assertFalse(id >= first && id < first + 10_000, "id " + id + " is inside the reserved block");
        assertTrue(id != before);
      }
      last = ids.next();
    }
    try (MetadataStore store = MetadataStore.open(dir)) {
      InodeAllocator ids = new InodeAllocator(store, 3);
      long afterRestart = ids.next();
      assertTrue(afterRestart > last && afterRestart >= first + 10_000, "after a restart ids start past everything");
      long second = ids.reserve(5);
      assertTrue(second > afterRestart);
    }
  }
}
