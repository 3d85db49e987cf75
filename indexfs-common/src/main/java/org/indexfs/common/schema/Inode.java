package org.indexfs.common.schema;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The value of a directory entry: the inode's attributes as fixed-width fields (LocoFS: no
 * per-field decoding), then a variable tail holding inline file bytes or a data-object name.
 * Owner and group are stored as interned 32-bit principal ids to keep the header fixed-width.
 *
 * <pre>
 *  0 version u8 | 1 type u8 | 2 flags u16 | 4 permission u16 | 6 replication u16
 *  8 owner u32 | 12 group u32 | 16 inodeId u64 | 24 length u64 | 32 mtime i64 | 40 atime i64
 * 48 blockSize u64 | 56 zerothSlot u16 | 58 tailKind u8 | 59 storagePolicy u8 | 60..63 reserved | 64 tail...
 * </pre>
 *
 * <p>Extended attributes and ACLs live in their own column family, keyed by inode id; the entry only
 * says that it has some ({@link #FLAG_XATTRS}, {@link #FLAG_ACL}), so entries without them keep the
 * fixed-width value. A directory's partition record (a copy of its access attributes, DESIGN §3)
 * carries the ACL itself in its tail ({@link #encodeRecord}), so a permission check at a
 * directory's home needs nothing else.
 */
public final class Inode {
  public static final int HEADER_BYTES = 64;
  private static final byte VERSION = 1;

  public static final byte TYPE_FILE = 0;
  public static final byte TYPE_DIRECTORY = 1;

  public static final int FLAG_UNDER_CONSTRUCTION = 1;
  /** Partition records only: the directory is being removed, so it takes no new entries. */
  public static final int FLAG_SEALED = 2;
  /** The entry has an extended ACL ({@link #acl}); its group bits are the ACL's mask, as in HDFS. */
  public static final int FLAG_ACL = 4;
  /** The entry has extended attributes. */
  public static final int FLAG_XATTRS = 8;
  /** A directory with a namespace or space quota. */
  public static final int FLAG_QUOTA = 16;
  /** A directory that allows snapshots. */
  public static final int FLAG_SNAPSHOTTABLE = 32;
  /**
   * A directory with its own subtree policy (issue 18, Cudele): the policy is the next four bits
   * ({@link org.indexfs.common.policy.SubtreePolicy#fromFlags}), so it travels wherever the entry's
   * flags do — partition records, sealed resolution answers, clients' lease caches.
   */
  public static final int FLAG_POLICY = 64;
  /** FLAG_POLICY and the policy's bits. */
  public static final int POLICY_FLAGS = FLAG_POLICY | 0x780;
  /** The flags a directory's partition record copies from its entry: what checks and routing need. */
  public static final int RECORD_FLAGS = FLAG_SEALED | FLAG_ACL | FLAG_QUOTA | FLAG_SNAPSHOTTABLE | POLICY_FLAGS;

  private static final byte TAIL_NONE = 0;
  private static final byte TAIL_INLINE = 1;
  private static final byte TAIL_OBJECT = 2;
  /** Partition records only: the directory's ACL. */
  private static final byte TAIL_ACL = 3;

  public byte type;
  public int flags;
  public int permission;
  public int replication;
  public int ownerId;
  public int groupId;
  public long inodeId;
  public long length;
  public long mtime;
  public long atime;
  public long blockSize;
  public int zerothSlot;
  /** HDFS storage policy id (0: unspecified, inherited from the parent). */
  public int storagePolicy;
  /** Inline bytes of a small file, or null. */
  public byte[] inlineData;
  /** Name of the data object holding a large file's bytes, or null. */
  public String dataObject;
  /**
   * The extended ACL entries as stored (HDFS's AclFeature: named entries, the unnamed group entry
   * and the default entries), encoded by the server; null without {@link #FLAG_ACL}. Never part of
   * an entry's value (see the class comment).
   */
  public byte[] acl;

  public boolean isDirectory() {
    return type == TYPE_DIRECTORY;
  }

  public boolean isUnderConstruction() {
    return (flags & FLAG_UNDER_CONSTRUCTION) != 0;
  }

  public boolean has(int flag) {
    return (flags & flag) != 0;
  }

  public Inode copy() {
    Inode c = new Inode();
    c.type = type;
    c.flags = flags;
    c.permission = permission;
    c.replication = replication;
    c.ownerId = ownerId;
    c.groupId = groupId;
    c.inodeId = inodeId;
    c.length = length;
    c.mtime = mtime;
    c.atime = atime;
    c.blockSize = blockSize;
    c.zerothSlot = zerothSlot;
    c.inlineData = inlineData;
    c.dataObject = dataObject;
    c.storagePolicy = storagePolicy;
    c.acl = acl;
    return c;
  }

  /** The entry's value: the fixed-width header and inline bytes or an object name (never the ACL). */
  public byte[] encode() {
    return encode(false);
  }

  /** A partition record's value: the header and, for a directory with an ACL, the ACL. */
  public byte[] encodeRecord() {
    return encode(true);
  }

  private byte[] encode(boolean withAcl) {
    byte tailKind = TAIL_NONE;
    byte[] tail = new byte[0];
    if (withAcl && acl != null) {
      tailKind = TAIL_ACL;
      tail = acl;
    } else if (inlineData != null) {
      tailKind = TAIL_INLINE;
      tail = inlineData;
    } else if (dataObject != null) {
      tailKind = TAIL_OBJECT;
      tail = dataObject.getBytes(StandardCharsets.UTF_8);
    }
    ByteBuffer b = ByteBuffer.allocate(HEADER_BYTES + tail.length);
    b.put(VERSION).put(type).putShort((short) flags).putShort((short) permission)
        .putShort((short) replication).putInt(ownerId).putInt(groupId).putLong(inodeId)
        .putLong(length).putLong(mtime).putLong(atime).putLong(blockSize)
        .putShort((short) zerothSlot).put(tailKind).put((byte) storagePolicy);
    b.position(HEADER_BYTES);
    b.put(tail);
    return b.array();
  }

  public static Inode decode(byte[] value) {
    if (value.length < HEADER_BYTES || value[0] != VERSION) {
      throw new IllegalStateException("Corrupt or unknown entry value (" + value.length + " bytes, version "
          + (value.length > 0 ? value[0] : -1) + ")");
    }
    ByteBuffer b = ByteBuffer.wrap(value);
    Inode i = new Inode();
    b.get();
    i.type = b.get();
    i.flags = Short.toUnsignedInt(b.getShort());
    i.permission = Short.toUnsignedInt(b.getShort());
    i.replication = Short.toUnsignedInt(b.getShort());
    i.ownerId = b.getInt();
    i.groupId = b.getInt();
    i.inodeId = b.getLong();
    i.length = b.getLong();
    i.mtime = b.getLong();
    i.atime = b.getLong();
    i.blockSize = b.getLong();
    i.zerothSlot = Short.toUnsignedInt(b.getShort());
    byte tailKind = b.get();
    i.storagePolicy = Byte.toUnsignedInt(b.get());
    if (tailKind == TAIL_ACL) {
      i.acl = Arrays.copyOfRange(value, HEADER_BYTES, value.length);
    } else if (tailKind == TAIL_INLINE) {
      i.inlineData = Arrays.copyOfRange(value, HEADER_BYTES, value.length);
    } else if (tailKind == TAIL_OBJECT) {
      i.dataObject = new String(value, HEADER_BYTES, value.length - HEADER_BYTES, StandardCharsets.UTF_8);
    }
    return i;
  }
}
