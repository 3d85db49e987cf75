package org.indexfs.common.giga;

/**
 * GIGA+ index math (DESIGN §4), shared by clients and servers.
 *
 * <p>A directory's hash space is split in halves, recursively. The partition index of a name at
 * radix {@code r} is the first {@code r} bits of its 64-bit hash read MSB-first: bit 0 of the index
 * is the hash's most significant bit, bit 1 the next one, and so on. Splitting partition {@code i}
 * at radix {@code r} creates child {@code i + 2^r}; an entry of {@code i} moves to the child iff its
 * index at radix {@code r + 1} equals the child. A lookup computes the index at the largest radix
 * and walks to the parent (clearing the top set bit) until it reaches a partition that exists.
 */
public final class GigaIndex {
  /** Indices are kept below 2^MAX_RADIX (65,536 partitions: the slot-id space). */
  public static final int MAX_RADIX = 16;

  private GigaIndex() {}

  /** The index of {@code hash} at radix {@code r}: its top {@code r} bits, bit-reversed. */
  public static int indexAt(long hash, int radix) {
    if (radix < 0 || radix > MAX_RADIX) {
      throw new IllegalArgumentException("radix out of range: " + radix);
    }
    // Reverse all 64 bits, then keep the low r: the hash's MSB becomes index bit 0.
    long reversed = Long.reverse(hash);
    return radix == 0 ? 0 : (int) (reversed & ((1L << radix) - 1));
  }

  /** The parent of partition {@code i} (the one it was split from); 0 has none. */
  public static int parentOf(int index) {
    if (index <= 0) {
      throw new IllegalArgumentException("partition 0 has no parent");
    }
    return index & ~Integer.highestOneBit(index);
  }

  /** Number of bits needed to write {@code index} (0 for partition 0). */
  public static int bitLength(int index) {
    return 32 - Integer.numberOfLeadingZeros(index);
  }

  /** The partition that holds {@code hash} given the partitions that exist. */
  public static int partitionOf(long hash, PartitionBitmap bitmap) {
    int i = indexAt(hash, MAX_RADIX);
    while (!bitmap.contains(i)) {
      i = parentOf(i);
    }
    return i;
  }

  /**
   * The radix at which partition {@code i} splits next: the smallest {@code r} at or above its bit
   * length whose child {@code i + 2^r} does not exist yet.
   */
  public static int splitRadix(int index, PartitionBitmap bitmap) {
    for (int r = bitLength(index); r < MAX_RADIX; r++) {
      if (!bitmap.contains(index + (1 << r))) {
        return r;
      }
    }
    return -1;
  }

  /** The child a split of {@code i} creates, or -1 when {@code i} cannot split below {@code limit} partitions. */
  public static int nextChild(int index, PartitionBitmap bitmap, int limit) {
    int r = splitRadix(index, bitmap);
    if (r < 0) {
      return -1;
    }
    int child = index + (1 << r);
    return child < limit ? child : -1;
  }

  /** True when an entry with {@code hash} in partition {@code parent} moves to {@code child}. */
  public static boolean movesTo(long hash, int child) {
    return indexAt(hash, bitLength(child)) == child;
  }

  /** The slot serving partition {@code i} of a directory whose zeroth slot is {@code zeroth}. */
  public static int slotOf(int zeroth, int index, int slots) {
    return (zeroth + index) % slots;
  }
}
