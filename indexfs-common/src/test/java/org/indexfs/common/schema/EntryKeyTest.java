package org.indexfs.common.schema;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class EntryKeyTest {
  @Test
  void roundTripsParentHashAndUnicodeName() {
    EntryKey k = EntryKey.of(42, "données ✓ with space");
    EntryKey back = EntryKey.decode(k.encode());
    assertEquals(k, back);
    assertEquals(42, EntryKey.parentOf(k.encode()));
  }

  @Test
  void everyEntryOfADirectorySharesItsEightBytePrefix() {
    byte[] prefix = EntryKey.prefix(7);
    for (String name : new String[] {"a", "b", "zzz", "x y"}) {
      assertTrue(Bytes.startsWith(EntryKey.of(7, name).encode(), prefix));
    }
    assertTrue(!Bytes.startsWith(EntryKey.of(8, "a").encode(), prefix));
  }

  @Test
  void keysSortByParentThenHashSoAPartitionIsOneRange() {
    byte[] a = EntryKey.of(1, "zzz").encode();
    byte[] b = EntryKey.of(2, "aaa").encode();
    assertTrue(Arrays.compareUnsigned(a, b) < 0, "all of directory 1 sorts before directory 2");
    EntryKey x = EntryKey.of(5, "x");
    EntryKey y = EntryKey.of(5, "y");
    int byHash = Long.compareUnsigned(x.nameHash(), y.nameHash());
    assertEquals(Integer.signum(byHash), Integer.signum(Arrays.compareUnsigned(x.encode(), y.encode())));
  }

  @Test
  void nameHashIsStableAcrossRuns() {
    // The hash is part of the on-disk key: changing it would orphan every stored entry.
    assertEquals(NameHash.of("hello"), NameHash.of("hello"));
    assertNotEquals(NameHash.of("hello"), NameHash.of("hellp"));
    assertArrayEquals(EntryKey.of(3, "f").encode(), EntryKey.of(3, "f").encode());
  }
}
