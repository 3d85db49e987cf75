package org.indexfs.common;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Names of data objects on the underlying FS, relative to {@code indexfs.data.uri} (DESIGN §6):
 * {@code <slot>/<128 random bits, hex>}. The slot that reserves a name (creating a file, or an
 * append or concat that turns an inline file into an object) draws it from a SecureRandom: no one
 * can guess the next name to read it or squat on it (DESIGN §14), and no name is handed out twice
 * (2^-64 odds over 2^32 objects), which the scrubber relies on to tell a live writer's object from
 * an orphan.
 *
 * <p>A bulk-insertion holder names its own objects from the secret its grant carries
 * ({@code LocalizeGrant.object_prefix}, drawn like a fresh name): {@code <slot>/<tag>-<mac>}, the
 * tag and the mac both HMAC-SHA256 under that secret, so one published object's name (which any
 * reader of that file sees) tells nothing of the holder's other objects (issue 31, item 14). The
 * same secret names the holder's publish directory ({@link #publishDirectory}).
 */
public final class ObjectNames {
  private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();
  private static final HexFormat HEX = HexFormat.of();
  /** Where holders leave the SST files they publish: one directory each ({@link #publishDirectory}). */
  public static final String PUBLISH_ROOT = ".publish";
  /** Where clients keep their journals (durability client-journal): one directory per user, made by the user. */
  public static final String CLIENT_JOURNALS_ROOT = ".client-journals";

  private ObjectNames() {}

  /** A new, unguessable object name in {@code slot}'s directory. */
  public static String fresh(int slot) {
    byte[] bits = new byte[16];
    RANDOM.nextBytes(bits);
    return slot + "/" + HEX.formatHex(bits);
  }

  /** The directory holding every object of {@code slot}, relative to the data root. */
  public static String slotDirectory(int slot) {
    return String.valueOf(slot);
  }

  /**
   * The start every object name of the holder with secret {@code holderSecret} has: its slot's
   * directory and a tag that identifies the holder without revealing its secret ("" for none).
   */
  public static String localizedPrefix(String holderSecret) {
    if (holderSecret.isEmpty()) {
      return "";
    }
    return slotPart(holderSecret) + HEX.formatHex(mac(holderSecret, "objects".getBytes(StandardCharsets.UTF_8)), 0, 16)
        + "-";
  }

  /** The one name the data object of entry {@code inodeId} of that holder may have. */
  public static String localizedObject(String holderSecret, long inodeId) {
    return localizedPrefix(holderSecret)
        + HEX.formatHex(mac(holderSecret, ByteBuffer.allocate(8).putLong(inodeId).array()), 0, 16);
  }

  /**
   * The holder's own directory for the SST files it publishes, relative to the data root:
   * {@code .publish/<slot>/<mac>}. The holder makes it (only it may write there); the slot accepts
   * a publish only of a file in it that the holder owns.
   */
  public static String publishDirectory(String holderSecret) {
    return PUBLISH_ROOT + "/" + slotPart(holderSecret)
        + HEX.formatHex(mac(holderSecret, "publish".getBytes(StandardCharsets.UTF_8)), 0, 16);
  }

  /** {@code "<slot>/"} of a holder's secret ({@code "<slot>/<hex>-"}, as {@link #fresh} plus a dash). */
  private static String slotPart(String holderSecret) {
    int slash = holderSecret.indexOf('/');
    if (slash <= 0) {
      throw new IllegalArgumentException("Not a holder's object secret: it names no slot");
    }
    return holderSecret.substring(0, slash + 1);
  }

  private static byte[] mac(String key, byte[] message) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return mac.doFinal(message);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
    }
  }
}
