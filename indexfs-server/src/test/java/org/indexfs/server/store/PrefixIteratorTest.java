package org.indexfs.server.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;

/** A prefix iterator sees exactly its prefix's keys, on real RocksDB, with deleted keys before and after. */
class PrefixIteratorTest {
  @TempDir
  Path dir;

  private static byte[] key(long parent, int i) {
    return ByteBuffer.allocate(12).putLong(parent).putInt(i).array();
  }

  @Test
  void seesItsPrefixOnlyAcrossTombstonesAndEndsOfRange() throws Exception {
    long[] parents = {0L, 7L, 8L, -1L};
    try (MetadataStore store = MetadataStore.open(dir)) {
      try (WriteBatch b = new WriteBatch()) {
        for (long p : parents) {
          for (int i = 0; i < 50; i++) {
            b.put(store.names(), key(p, i), new byte[] {1});
          }
        }
        store.writeDurably(b);
      }
      try (WriteBatch b = new WriteBatch()) {
        for (int i = 10; i < 50; i++) {
          b.delete(store.names(), key(8L, i)); // a mass delete right after 7's keys
        }
        store.writeDurably(b);
      }
      assertEquals(50, count(store, 7L));
      assertEquals(10, count(store, 8L));
      assertEquals(50, count(store, -1L)); // the last prefix: no upper bound to set
      assertEquals(50, count(store, 0L));
      assertEquals(0, count(store, 9L));
    }
  }

  private static int count(MetadataStore store, long parent) {
    byte[] prefix = ByteBuffer.allocate(8).putLong(parent).array();
    List<byte[]> seen = new ArrayList<>();
    try (PrefixIterator p = store.prefixIterator(store.names(), prefix)) {
      RocksIterator it = p.it();
      for (it.seek(prefix); it.isValid(); it.next()) {
        assertEquals(parent, ByteBuffer.wrap(it.key()).getLong(), "only keys of the prefix");
        seen.add(it.key());
      }
    }
    return seen.size();
  }

  @Test
  void theBoundIsTheNextPrefixWithCarries() {
    assertArrayEquals(new byte[] {0, 2}, PrefixIterator.after(new byte[] {0, 1}));
    assertArrayEquals(new byte[] {1}, PrefixIterator.after(new byte[] {0, (byte) 0xFF}));
    assertNull(PrefixIterator.after(new byte[] {(byte) 0xFF, (byte) 0xFF}));
  }
}
