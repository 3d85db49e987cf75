package org.indexfs.common.giga;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class GigaIndexTest {
  @Test
  void indexReadsHashBitsMostSignificantFirst() {
    long msbOnly = 1L << 63;
    assertEquals(0, GigaIndex.indexAt(msbOnly, 0));
    assertEquals(1, GigaIndex.indexAt(msbOnly, 1));
    assertEquals(1, GigaIndex.indexAt(msbOnly, 5));
    long secondBit = 1L << 62;
    assertEquals(0, GigaIndex.indexAt(secondBit, 1));
    assertEquals(2, GigaIndex.indexAt(secondBit, 2));
    assertEquals(3, GigaIndex.indexAt(msbOnly | secondBit, 2));
  }

  @Test
  void parentClearsTheTopSetBit() {
    assertEquals(0, GigaIndex.parentOf(1));
    assertEquals(1, GigaIndex.parentOf(3));
    assertEquals(2, GigaIndex.parentOf(6));
    assertEquals(5, GigaIndex.parentOf(13));
  }

  @Test
  void splitsCreateChildrenAtIncreasingRadix() {
    PartitionBitmap map = PartitionBitmap.initial();
    assertEquals(1, GigaIndex.nextChild(0, map, 8));
    map.add(1);
    assertEquals(2, GigaIndex.nextChild(0, map, 8));
    assertEquals(3, GigaIndex.nextChild(1, map, 8));
    map.add(2);
    map.add(3);
    assertEquals(4, GigaIndex.nextChild(0, map, 8));
    assertEquals(7, GigaIndex.nextChild(3, map, 8));
    assertEquals(-1, GigaIndex.nextChild(3, map, 6), "no partition beyond the slot count");
  }

  @Test
  void everyHashLandsInExactlyTheRightPartitionAfterAnySequenceOfSplits() {
    Random random = new Random(7);
    long[] hashes = random.longs(20_000).toArray();
    PartitionBitmap map = PartitionBitmap.initial();
    int[] owner = new int[hashes.length];
    int slots = 16;
    while (true) {
      int[] splittable = java.util.Arrays.stream(map.partitions())
          .filter(p -> GigaIndex.nextChild(p, map, slots) >= 0).toArray();
      if (splittable.length == 0) {
        break;
      }
      int victim = splittable[random.nextInt(splittable.length)];
      int child = GigaIndex.nextChild(victim, map, slots);
      // Apply the split the way a server does: entries of the victim that move go to the child.
      for (int h = 0; h < hashes.length; h++) {
        if (owner[h] == victim && GigaIndex.movesTo(hashes[h], child)) {
          owner[h] = child;
        }
      }
      map.add(child);
      for (int h = 0; h < hashes.length; h++) {
        assertEquals(owner[h], GigaIndex.partitionOf(hashes[h], map), "lookup disagrees with split placement");
      }
    }
    assertEquals(slots, map.count(), "the directory ends up spanning every slot");
  }

  @Test
  void staleMapsStillFindAnAncestorAndMergeByOr() {
    PartitionBitmap server = PartitionBitmap.initial();
    server.add(1);
    server.add(3);
    PartitionBitmap client = PartitionBitmap.initial();
    long hash = -1L; // all bits set: index 3 at radix 2
    assertEquals(0, GigaIndex.partitionOf(hash, client), "a stale client asks partition 0's slot");
    client.merge(server);
    assertEquals(3, GigaIndex.partitionOf(hash, client));
    assertArrayEquals(server.toBytes(), PartitionBitmap.fromBytes(client.toBytes()).toBytes());
    assertTrue(client.contains(0));
    assertFalse(client.contains(2));
  }

  @Test
  void partitionsMapToConsecutiveSlotsFromTheZeroth() {
    assertEquals(5, GigaIndex.slotOf(5, 0, 8));
    assertEquals(0, GigaIndex.slotOf(5, 3, 8));
  }
}
