package org.indexfs.common.schema;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Key of a directory entry: {@code parentId (8, big-endian) | nameHash (8) | name (UTF-8)}.
 * All entries of a directory share the 8-byte parent prefix; keeping the name makes keys
 * collision-free even when two names share a hash.
 */
public record EntryKey(long parentId, long nameHash, String name) {
  public static final int PREFIX_BYTES = 8;
  public static final int HEADER_BYTES = 16;

  public static EntryKey of(long parentId, String name) {
    return new EntryKey(parentId, name.isEmpty() ? 0 : NameHash.of(name), name);
  }

  public byte[] encode() {
    byte[] n = name.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(HEADER_BYTES + n.length).putLong(parentId).putLong(nameHash).put(n).array();
  }

  public static EntryKey decode(byte[] key) {
    ByteBuffer b = ByteBuffer.wrap(key);
    long parent = b.getLong();
    long hash = b.getLong();
    String name = new String(key, HEADER_BYTES, key.length - HEADER_BYTES, StandardCharsets.UTF_8);
    return new EntryKey(parent, hash, name);
  }

  /** The 8-byte prefix shared by every entry of directory {@code parentId}. */
  public static byte[] prefix(long parentId) {
    return ByteBuffer.allocate(PREFIX_BYTES).putLong(parentId).array();
  }

  /** Reads the parent id of an encoded key without decoding the rest. */
  public static long parentOf(byte[] key) {
    return ByteBuffer.wrap(key, 0, PREFIX_BYTES).getLong();
  }
}
