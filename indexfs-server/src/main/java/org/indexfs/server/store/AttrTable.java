package org.indexfs.server.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.indexfs.common.schema.Bytes;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Snapshot;
import org.rocksdb.WriteBatch;

/**
 * The {@code attrs} column family: what an entry has beyond its fixed-width attributes, keyed by
 * inode id so it follows the inode wherever its entry goes (a rename changes the entry's key, not
 * its id). {@code inodeId (8) | 'a'} holds the extended ACL, {@code inodeId (8) | 'x' | name} one
 * extended attribute (name with its namespace prefix, {@code user.foo}). Only entries flagged as
 * having an ACL or xattrs have rows, so nothing here is read for the others.
 */
public final class AttrTable {
  private static final byte ACL = 'a';
  private static final byte XATTR = 'x';
  /**
   * Values of xattrs: a marker byte (HDFS tells a null value from an empty one), the attribute's
   * place in HDFS's order (the last one set comes first), then the bytes.
   */
  private static final byte NO_VALUE = 0;
  private static final byte VALUE = 1;
  private static final int VALUE_HEADER = 9;

  private final MetadataStore store;

  public AttrTable(MetadataStore store) {
    this.store = store;
  }

  /**
   * One extended attribute as stored: its prefixed name, its value (null: set without a value) and
   * when it was set relative to the entry's others ({@code order}: higher is later).
   */
  public record XAttrValue(String name, byte[] value, long order) {
    public XAttrValue(String name, byte[] value) {
      this(name, value, 0);
    }
  }

  /** A raw row, moved as it is between slots with its entry (GIGA+ splits, cross-slot renames). */
  public record Row(byte[] key, byte[] value) {}

  private static byte[] prefix(long inodeId) {
    return ByteBuffer.allocate(8).putLong(inodeId).array();
  }

  private static byte[] aclKey(long inodeId) {
    return ByteBuffer.allocate(9).putLong(inodeId).put(ACL).array();
  }

  private static byte[] xattrKey(long inodeId, String name) {
    byte[] n = name.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(9 + n.length).putLong(inodeId).put(XATTR).put(n).array();
  }

  /** The inode id a row belongs to. */
  public static long inodeOf(byte[] key) {
    return ByteBuffer.wrap(key, 0, 8).getLong();
  }

  /** The stored ACL of {@code inodeId}, or null. */
  public byte[] acl(long inodeId) throws IOException {
    return store.get(store.attrs(), aclKey(inodeId));
  }

  public void putAcl(WriteBatch batch, long inodeId, byte[] acl) throws IOException {
    put(batch, aclKey(inodeId), acl);
  }

  public void deleteAcl(WriteBatch batch, long inodeId) throws IOException {
    try {
      batch.delete(store.attrs(), aclKey(inodeId));
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  /**
   * Every extended attribute of {@code inodeId}, the last one set first: the order HDFS keeps them
   * in, which clients' hash maps of them (getfattr -d) reflect.
   */
  public List<XAttrValue> xattrs(long inodeId) {
    List<XAttrValue> out = new ArrayList<>();
    byte[] from = ByteBuffer.allocate(9).putLong(inodeId).put(XATTR).array();
    try (RocksIterator it = store.iterator(store.attrs(), null)) {
      for (it.seek(from); it.isValid() && Bytes.startsWith(it.key(), from); it.next()) {
        out.add(decodeXAttr(it.key(), it.value()));
      }
    }
    out.sort(java.util.Comparator.comparingLong(XAttrValue::order).reversed());
    return out;
  }

  private static XAttrValue decodeXAttr(byte[] key, byte[] v) {
    return new XAttrValue(new String(key, 9, key.length - 9, StandardCharsets.UTF_8),
        v[0] == NO_VALUE ? null : Arrays.copyOfRange(v, VALUE_HEADER, v.length), ByteBuffer.wrap(v, 1, 8).getLong());
  }

  /** The extended attributes among an entry's raw rows (a snapshot's copy), in HDFS's order as above. */
  public static List<XAttrValue> xattrsOf(List<Row> rows) {
    List<XAttrValue> out = new ArrayList<>();
    for (Row r : rows) {
      if (r.key().length > 9 && r.key()[8] == XATTR) {
        out.add(decodeXAttr(r.key(), r.value()));
      }
    }
    out.sort(java.util.Comparator.comparingLong(XAttrValue::order).reversed());
    return out;
  }

  /** Sets an attribute; {@code order} places it among the entry's others (one more than the latest). */
  public void putXAttr(WriteBatch batch, long inodeId, String name, byte[] value, long order) throws IOException {
    byte[] bytes = value == null ? new byte[0] : value;
    ByteBuffer v = ByteBuffer.allocate(VALUE_HEADER + bytes.length);
    v.put(value == null ? NO_VALUE : VALUE).putLong(order).put(bytes);
    put(batch, xattrKey(inodeId, name), v.array());
  }

  public void deleteXAttr(WriteBatch batch, long inodeId, String name) throws IOException {
    try {
      batch.delete(store.attrs(), xattrKey(inodeId, name));
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  /** True when {@code inode} has rows here (its flags say so). */
  public static boolean hasRows(org.indexfs.common.schema.Inode inode) {
    return inode.has(org.indexfs.common.schema.Inode.FLAG_ACL) || inode.has(org.indexfs.common.schema.Inode.FLAG_XATTRS);
  }

  /** Removes the rows of an inode that is gone (deleted, replaced, or moved to another slot with its rows). */
  public void deleteFor(WriteBatch batch, org.indexfs.common.schema.Inode inode) throws IOException {
    if (hasRows(inode)) {
      deleteAll(batch, inode.inodeId);
    }
  }

  /** Removes every row of {@code inodeId}: the inode is gone. One range tombstone. */
  public void deleteAll(WriteBatch batch, long inodeId) throws IOException {
    try {
      batch.deleteRange(store.attrs(), prefix(inodeId), prefix(inodeId + 1));
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  /** The raw rows of {@code inodeId} as {@code snapshot} sees them (null: now), to move them with their entry. */
  public List<Row> rows(long inodeId, Snapshot snapshot) {
    List<Row> out = new ArrayList<>();
    byte[] prefix = prefix(inodeId);
    try (ReadOptions read = new ReadOptions();
        RocksIterator it = store.iterator(store.attrs(), snapshot == null ? null : read.setSnapshot(snapshot))) {
      for (it.seek(prefix); it.isValid() && Bytes.startsWith(it.key(), prefix); it.next()) {
        out.add(new Row(it.key(), it.value()));
      }
    }
    return out;
  }

  /** The ACL among an entry's rows, or null. */
  public static byte[] aclOf(List<Row> rows) {
    for (Row r : rows) {
      if (r.key().length == 9 && r.key()[8] == ACL) {
        return r.value();
      }
    }
    return null;
  }

  /** Writes rows that arrived with a moved entry. */
  public void putRows(WriteBatch batch, List<Row> rows) throws IOException {
    for (Row r : rows) {
      put(batch, r.key(), r.value());
    }
  }

  private void put(WriteBatch batch, byte[] key, byte[] value) throws IOException {
    try {
      batch.put(store.attrs(), key, value);
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }
}
