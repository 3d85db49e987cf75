package org.indexfs.common;

/**
 * Names of data objects on the underlying FS, relative to {@code indexfs.data.uri} (DESIGN §6):
 * {@code <slot>/<128 random bits, hex>}. The slot that reserves a name (creating a file, or an
 * append or concat that turns an inline file into an object) draws it from a SecureRandom: no one
 * can guess the next name to read it or squat on it (DESIGN §14), and no name is handed out twice
 * (2^-64 odds over 2^32 objects), which the scrubber relies on to tell a live writer's object from
 * an orphan.
 */
public final class ObjectNames {
  private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();

  private ObjectNames() {}

  /** A new, unguessable object name in {@code slot}'s directory. */
  public static String fresh(int slot) {
    byte[] bits = new byte[16];
    RANDOM.nextBytes(bits);
    return slot + "/" + java.util.HexFormat.of().formatHex(bits);
  }

  /** The directory holding every object of {@code slot}, relative to the data root. */
  public static String slotDirectory(int slot) {
    return String.valueOf(slot);
  }
}
