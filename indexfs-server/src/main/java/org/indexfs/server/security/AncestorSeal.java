package org.indexfs.server.security;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.indexfs.proto.Ancestor;
import org.indexfs.proto.SealKey;

/**
 * Seals the directory entries a server hands out for clients to cache (DESIGN §14), so a client can
 * present them back but not make them up: an HMAC-SHA256 under the cluster's shared key of where
 * the entry sits (parent id and name, so a real entry cannot be moved up a path to skip a check),
 * what it is (id, permission, owner, group, zeroth slot, flags and extended ACL: all decide
 * permission checks or quota accounting) and until when it is vouched for. Any
 * server can check any server's seal; none keeps per-client state.
 */
public final class AncestorSeal {
  private final ResolutionKeys keys;
  private final long graceMs;
  /**
   * One Mac per thread, reused: a cache of an object that is costly to make and not thread-safe,
   * not a call's state (it holds nothing between two seals), so it stays a ThreadLocal on purpose.
   */
  private final ThreadLocal<Mac> macs = ThreadLocal.withInitial(() -> {
    try {
      return Mac.getInstance("HmacSHA256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  });

  public AncestorSeal(ResolutionKeys keys, long graceMs) {
    this.keys = keys;
    this.graceMs = graceMs;
  }

  /** Seals {@code a} (attributes and lease already set), the entry {@code name} in {@code parentId}. */
  public Ancestor.Builder seal(Ancestor.Builder a, long parentId, String name) {
    SealKey key = keys.current();
    long until = System.currentTimeMillis() + a.getLeaseMs() + graceMs;
    a.setKeyId(key.getId()).setVouchedUntilMs(until);
    return a.setMac(com.google.protobuf.ByteString.copyFrom(mac(key, a, until, parentId, name)));
  }

  /** True when {@code a} carries a valid, unexpired seal as entry {@code name} of {@code parentId}. */
  public boolean verify(Ancestor a, long parentId, String name) {
    if (a.getMac().size() != 32 || a.getVouchedUntilMs() < System.currentTimeMillis()) {
      return false;
    }
    SealKey key = keys.find(a.getKeyId());
    if (key == null) {
      return false;
    }
    byte[] expected = mac(key, a, a.getVouchedUntilMs(), parentId, name);
    return MessageDigest.isEqual(expected, a.getMac().toByteArray());
  }

  private byte[] mac(SealKey key, org.indexfs.proto.AncestorOrBuilder a, long until, long parentId, String name) {
    Mac mac = macs.get();
    try {
      mac.init(new SecretKeySpec(key.getSecret().toByteArray(), "HmacSHA256"));
    } catch (InvalidKeyException e) {
      throw new IllegalStateException(e);
    }
    ByteBuffer fixed = ByteBuffer.allocate(8 + 8 + 4 + 4 + 8 + 4);
    fixed.putLong(parentId).putLong(a.getInodeId()).putInt(a.getPermission()).putInt(a.getZerothSlot()).putLong(until)
        .putInt(a.getFlags());
    mac.update(fixed.array());
    // Lengths first, so no two (name, owner, group, ACL) tuples give the same bytes.
    for (String s : new String[] {name, a.getOwner(), a.getGroup()}) {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      mac.update(ByteBuffer.allocate(4).putInt(b.length).array());
      mac.update(b);
    }
    mac.update(ByteBuffer.allocate(4).putInt(a.getAcl().size()).array());
    mac.update(a.getAcl().asReadOnlyByteBuffer());
    return mac.doFinal();
  }
}
