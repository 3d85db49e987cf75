package org.indexfs.common;

/**
 * Inode ids are {@code slot (16 bits) | sequence (48 bits)} (DESIGN §3): the slot that creates an
 * entry allocates its id from a local counter, so no coordination is needed.
 */
public final class InodeIds {
  public static final int SLOT_BITS = 16;
  public static final long SEQUENCE_MASK = (1L << 48) - 1;
  /** The root's id: slot 0, sequence 1. Its entry lives under parent {@link #NO_PARENT}. */
  public static final long ROOT = of(0, 1);
  public static final long NO_PARENT = 0;

  private InodeIds() {}

  public static long of(int slot, long sequence) {
    if (slot < 0 || slot >= (1 << SLOT_BITS)) {
      throw new IllegalArgumentException("slot out of range: " + slot);
    }
    if (sequence < 0 || sequence > SEQUENCE_MASK) {
      throw new IllegalArgumentException("sequence out of range: " + sequence);
    }
    return ((long) slot << 48) | sequence;
  }

  public static int slot(long inodeId) {
    return (int) (inodeId >>> 48);
  }

  public static long sequence(long inodeId) {
    return inodeId & SEQUENCE_MASK;
  }

  /** {@code slot:sequence}, for messages and logs. */
  public static String format(long inodeId) {
    return slot(inodeId) + ":" + sequence(inodeId);
  }
}
