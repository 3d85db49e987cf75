package org.indexfs.server.bulk;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The durable record of one localized subtree (IndexFS §II-D, §II-E: "the first lease for a
 * localized directory should be logged"): its root directory, whether several clients share it,
 * and each holder with the inode-id blocks reserved for it. Expiry times are soft state, kept in
 * memory only: a restarted server gives every holder a fresh lease period, as HDFS does for file
 * leases.
 *
 * @param holders in the order they joined; a holder that released stays, {@code released}, until
 *     the localization ends, so its blocks still identify its published entries to the conflict rule
 */
public record Localization(long dirId, boolean shared, List<Holder> holders) {
  private static final byte VERSION = 2;

  /**
   * One client's part: who it acts as, the ids it names entries from, and the secret its data
   * objects' and its publish directory's names are made from ({@code <slot>/<128 random bits>-}:
   * nobody else can guess them, nor derive one object's name from another's, DESIGN §14,
   * {@link org.indexfs.common.ObjectNames#localizedObject}).
   */
  public record Holder(String clientId, String user, List<String> groups, List<long[]> blocks, boolean released,
      String objectPrefix) {
    /** The one name the data object of entry {@code inodeId} may have (null: this holder may write none). */
    public String objectName(long inodeId) {
      return objectPrefix.isEmpty() ? null : org.indexfs.common.ObjectNames.localizedObject(objectPrefix, inodeId);
    }

    /** True when {@code name} is a data-object name this holder may write (its secret's tag, a mac after it). */
    public boolean mayWrite(String name) {
      if (objectPrefix.isEmpty()) {
        return false;
      }
      String prefix = org.indexfs.common.ObjectNames.localizedPrefix(objectPrefix);
      return name.startsWith(prefix) && name.length() == prefix.length() + 32
          && name.substring(prefix.length()).chars().allMatch(c -> Character.digit(c, 16) >= 0);
    }

    /** Where this holder leaves the SST files it publishes (its own directory on the data tier). */
    public String publishDirectory() {
      return objectPrefix.isEmpty() ? null : org.indexfs.common.ObjectNames.publishDirectory(objectPrefix);
    }

    public boolean owns(long inodeId) {
      for (long[] b : blocks) {
        if (Long.compareUnsigned(inodeId, b[0]) >= 0 && Long.compareUnsigned(inodeId - b[0], b[1]) < 0) {
          return true;
        }
      }
      return false;
    }

    Holder withBlock(long first, long count) {
      List<long[]> more = new ArrayList<>(blocks);
      more.add(new long[] {first, count});
      return new Holder(clientId, user, groups, more, released, objectPrefix);
    }

    Holder releasedNow() {
      return new Holder(clientId, user, groups, blocks, true, objectPrefix);
    }
  }

  public Holder holder(String clientId) {
    for (Holder h : holders) {
      if (h.clientId().equals(clientId)) {
        return h;
      }
    }
    return null;
  }

  /** The holder (current or released) whose block {@code inodeId} came from, or null. */
  public Holder ownerOf(long inodeId) {
    for (Holder h : holders) {
      if (h.owns(inodeId)) {
        return h;
      }
    }
    return null;
  }

  public boolean hasLiveHolders() {
    for (Holder h : holders) {
      if (!h.released()) {
        return true;
      }
    }
    return false;
  }

  Localization with(Holder changed) {
    List<Holder> out = new ArrayList<>();
    boolean replaced = false;
    for (Holder h : holders) {
      if (h.clientId().equals(changed.clientId())) {
        out.add(changed);
        replaced = true;
      } else {
        out.add(h);
      }
    }
    if (!replaced) {
      out.add(changed);
    }
    return new Localization(dirId, shared, out);
  }

  byte[] encode() {
    ByteBuffer b = ByteBuffer.allocate(64 + size());
    b.put(VERSION).putLong(dirId).put((byte) (shared ? 1 : 0)).putInt(holders.size());
    for (Holder h : holders) {
      put(b, h.clientId());
      put(b, h.user());
      put(b, h.objectPrefix());
      b.putInt(h.groups().size());
      for (String g : h.groups()) {
        put(b, g);
      }
      b.put((byte) (h.released() ? 1 : 0)).putInt(h.blocks().size());
      for (long[] block : h.blocks()) {
        b.putLong(block[0]).putLong(block[1]);
      }
    }
    byte[] out = new byte[b.position()];
    b.flip().get(out);
    return out;
  }

  private int size() {
    int n = 0;
    for (Holder h : holders) {
      n += 16 + bytes(h.clientId()) + bytes(h.user()) + bytes(h.objectPrefix()) + 16 * h.blocks().size();
      for (String g : h.groups()) {
        n += 4 + bytes(g);
      }
      n += 16;
    }
    return n;
  }

  private static int bytes(String s) {
    return 4 + s.getBytes(StandardCharsets.UTF_8).length;
  }

  static Localization decode(byte[] value) {
    ByteBuffer b = ByteBuffer.wrap(value);
    byte version = b.get();
    if (version != VERSION && version != 1) {
      throw new IllegalStateException("Unknown localization record version " + value[0]);
    }
    long dirId = b.getLong();
    boolean shared = b.get() == 1;
    int n = b.getInt();
    List<Holder> holders = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String client = get(b);
      String user = get(b);
      // Version 1 (before data-object names were secret): its holders may write no object.
      String objectPrefix = version == 1 ? "" : get(b);
      int groupCount = b.getInt();
      List<String> groups = new ArrayList<>(groupCount);
      for (int g = 0; g < groupCount; g++) {
        groups.add(get(b));
      }
      boolean released = b.get() == 1;
      int blockCount = b.getInt();
      List<long[]> blocks = new ArrayList<>(blockCount);
      for (int k = 0; k < blockCount; k++) {
        blocks.add(new long[] {b.getLong(), b.getLong()});
      }
      holders.add(new Holder(client, user, groups, blocks, released, objectPrefix));
    }
    return new Localization(dirId, shared, holders);
  }

  private static void put(ByteBuffer b, String s) {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    b.putInt(bytes.length).put(bytes);
  }

  private static String get(ByteBuffer b) {
    byte[] s = new byte[b.getInt()];
    b.get(s);
    return new String(s, StandardCharsets.UTF_8);
  }
}
