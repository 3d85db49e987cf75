package org.indexfs.common.giga;

import java.util.Arrays;
import java.util.BitSet;

/**
 * Which partitions of a directory exist. Copies held by clients and servers may be stale but
 * never wrong about a partition existing: partitions are only ever added, so maps are merged by
 * OR (GIGA+'s inconsistency-tolerant mapping).
 */
public final class PartitionBitmap {
  private final BitSet bits;

  private PartitionBitmap(BitSet bits) {
    this.bits = bits;
  }

  /** A directory that has never split: only partition 0. */
  public static PartitionBitmap initial() {
    BitSet b = new BitSet();
    b.set(0);
    return new PartitionBitmap(b);
  }

  public static PartitionBitmap fromBytes(byte[] bytes) {
    PartitionBitmap p = new PartitionBitmap(BitSet.valueOf(bytes));
    p.bits.set(0);
    return p;
  }

  public byte[] toBytes() {
    return bits.toByteArray();
  }

  public synchronized boolean contains(int index) {
    return index >= 0 && bits.get(index);
  }

  public synchronized void add(int index) {
    bits.set(index);
  }

  /** OR-merges {@code other} into this map. */
  public synchronized void merge(PartitionBitmap other) {
    BitSet o;
    synchronized (other) {
      o = (BitSet) other.bits.clone();
    }
    bits.or(o);
  }

  public synchronized int count() {
    return bits.cardinality();
  }

  public synchronized int[] partitions() {
    return bits.stream().toArray();
  }

  public synchronized PartitionBitmap copy() {
    return new PartitionBitmap((BitSet) bits.clone());
  }

  @Override
  public synchronized String toString() {
    return Arrays.toString(bits.stream().toArray());
  }
}
