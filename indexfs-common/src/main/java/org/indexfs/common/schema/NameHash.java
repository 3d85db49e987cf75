package org.indexfs.common.schema;

import com.google.common.hash.HashFunction;
import com.google.common.hash.Hashing;
import java.nio.charset.StandardCharsets;

/**
 * The 64-bit hash of a name under its parent. Entries sort by it, so every GIGA+ partition (a
 * prefix of the hash bits, read MSB-first) is one contiguous key range (DESIGN §3, §4).
 */
public final class NameHash {
  private static final HashFunction MURMUR = Hashing.murmur3_128(0x1de5f5);

  private NameHash() {}

  public static long of(String name) {
    return MURMUR.hashString(name, StandardCharsets.UTF_8).asLong();
  }
}
