package org.indexfs.server.snapshot;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.indexfs.common.schema.Bytes;
import org.indexfs.proto.AttrRow;
import org.indexfs.proto.OpenResult;
import org.indexfs.server.store.AttrTable;
import org.indexfs.server.store.MetadataStore;
import org.indexfs.server.store.PrefixIterator;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;

/**
 * The snapshots of the directories homed on this slot, in its {@code meta} column family (so they
 * are journaled, checkpointed and taken over by a standby like everything else):
 * <ul>
 *   <li>{@code snap.m/<dir><name>} → the snapshot: its id, creation time and the directory's own
 *       status then;</li>
 *   <li>{@code snap.e/<snapshot id><parent id><name>} → the status (and inline bytes) of every entry
 *       of the subtree then, the name's bytes with their top bit flipped so that keys sort as HDFS
 *       lists names (signed bytes: non-ASCII first);</li>
 *   <li>{@code snap.a/<snapshot id><attrs row key>} → the xattr and ACL rows ({@link AttrTable}) of
 *       the subtree's entries then, the directory's own included, as they were keyed (by inode id);</li>
 *   <li>{@code snap.d/<dir>} → the path of a snapshottable directory homed here, as of allowSnapshot.</li>
 * </ul>
 */
final class SnapshotTable {
  private static final byte[] META = "snap.m/".getBytes(StandardCharsets.UTF_8);
  private static final byte[] ENTRY = "snap.e/".getBytes(StandardCharsets.UTF_8);
  private static final byte[] DIRS = "snap.d/".getBytes(StandardCharsets.UTF_8);
  private static final byte[] ATTRS = "snap.a/".getBytes(StandardCharsets.UTF_8);

  /** A snapshot of a directory: its id (an inode id of the home slot), when, and the directory then. */
  record Snap(String name, long id, long createdMs, OpenResult root) {}

  private final org.indexfs.server.ns.Namespace ns;

  private MetadataStore store() {
    return ns.store();
  }

  SnapshotTable(org.indexfs.server.ns.Namespace ns) {
    this.ns = ns;
  }

  private static byte[] metaPrefix(long dir) {
    return ByteBuffer.allocate(META.length + 8).put(META).putLong(dir).array();
  }

  private static byte[] metaKey(long dir, String name) {
    return Bytes.concat(metaPrefix(dir), name.getBytes(StandardCharsets.UTF_8));
  }

  static byte[] entryPrefix(long snapshot, long parent) {
    return ByteBuffer.allocate(ENTRY.length + 16).put(ENTRY).putLong(snapshot).putLong(parent).array();
  }

  static byte[] flip(byte[] name) {
    byte[] out = name.clone();
    for (int i = 0; i < out.length; i++) {
      out[i] ^= (byte) 0x80;
    }
    return out;
  }

  private static byte[] entryKey(long snapshot, long parent, String name) {
    return Bytes.concat(entryPrefix(snapshot, parent), flip(name.getBytes(StandardCharsets.UTF_8)));
  }

  private static byte[] dirKey(long dir) {
    return ByteBuffer.allocate(DIRS.length + 8).put(DIRS).putLong(dir).array();
  }

  Snap snapshot(long dir, String name) throws IOException {
    byte[] v = store().get(store().meta(), metaKey(dir, name));
    return v == null ? null : decode(name, v);
  }

  private static Snap decode(String name, byte[] v) throws InvalidProtocolBufferException {
    ByteBuffer b = ByteBuffer.wrap(v);
    long id = b.getLong();
    long created = b.getLong();
    return new Snap(name, id, created, OpenResult.parseFrom(Arrays.copyOfRange(v, 16, v.length)));
  }

  /** Every snapshot of {@code dir}, by name (as HDFS lists {@code .snapshot}). */
  List<Snap> snapshots(long dir) throws IOException {
    byte[] prefix = metaPrefix(dir);
    List<Snap> out = new ArrayList<>();
    try (PrefixIterator bounded = store().prefixIterator(store().meta(), prefix)) {
      RocksIterator it = bounded.it();
      for (it.seek(prefix); it.isValid() && Bytes.startsWith(it.key(), prefix); it.next()) {
        String name = new String(it.key(), prefix.length, it.key().length - prefix.length, StandardCharsets.UTF_8);
        out.add(decode(name, it.value()));
      }
    }
    return out;
  }

  void putSnapshot(WriteBatch batch, long dir, Snap s) throws IOException {
    byte[] root = s.root().toByteArray();
    byte[] v = ByteBuffer.allocate(16 + root.length).putLong(s.id()).putLong(s.createdMs()).put(root).array();
    put(batch, metaKey(dir, s.name()), v);
  }

  void deleteSnapshot(WriteBatch batch, long dir, String name) throws IOException {
    try {
      batch.delete(store().meta(), metaKey(dir, name));
    } catch (org.rocksdb.RocksDBException e) {
      throw new IOException(e);
    }
  }

  /** Removes every entry record of snapshot {@code id}, and their xattr and ACL rows. */
  void dropEntries(WriteBatch batch, long id) throws IOException {
    try {
      for (byte[] kind : new byte[][] {ENTRY, ATTRS}) {
        byte[] from = ByteBuffer.allocate(kind.length + 8).put(kind).putLong(id).array();
        byte[] to = ByteBuffer.allocate(kind.length + 8).put(kind).putLong(id + 1).array();
        batch.deleteRange(store().meta(), from, to);
      }
    } catch (org.rocksdb.RocksDBException e) {
      throw new IOException(e);
    }
  }

  private static byte[] attrsPrefix(long id, long inodeId) {
    return ByteBuffer.allocate(ATTRS.length + 16).put(ATTRS).putLong(id).putLong(inodeId).array();
  }

  /** Keeps xattr and ACL rows (keyed by inode id, as the attrs table keys them) in snapshot {@code id}. */
  void putAttrRows(WriteBatch batch, long id, List<AttrRow> rows) throws IOException {
    byte[] head = ByteBuffer.allocate(ATTRS.length + 8).put(ATTRS).putLong(id).array();
    for (AttrRow r : rows) {
      put(batch, Bytes.concat(head, r.getKey().toByteArray()), r.getValue().toByteArray());
    }
  }

  /** The xattr and ACL rows entry {@code inodeId} had in snapshot {@code id}, as the attrs table keys them. */
  List<AttrTable.Row> attrRows(long id, long inodeId) {
    byte[] prefix = attrsPrefix(id, inodeId);
    int strip = ATTRS.length + 8;
    List<AttrTable.Row> out = new ArrayList<>();
    try (PrefixIterator bounded = store().prefixIterator(store().meta(), prefix)) {
      RocksIterator it = bounded.it();
      for (it.seek(prefix); it.isValid() && Bytes.startsWith(it.key(), prefix); it.next()) {
        out.add(new AttrTable.Row(Arrays.copyOfRange(it.key(), strip, it.key().length), it.value()));
      }
    }
    return out;
  }

  void putEntry(WriteBatch batch, long id, long parent, OpenResult entry) throws IOException {
    put(batch, entryKey(id, parent, entry.getStatus().getName()), entry.toByteArray());
  }

  OpenResult entry(long id, long parent, String name) throws IOException {
    byte[] v = store().get(store().meta(), entryKey(id, parent, name));
    return v == null ? null : OpenResult.parseFrom(v);
  }

  /** Up to {@code limit} entries of {@code parent} after the name {@code startAfter} (empty: from the first). */
  List<OpenResult> entries(long id, long parent, byte[] startAfter, int limit) throws IOException {
    byte[] prefix = entryPrefix(id, parent);
    List<OpenResult> out = new ArrayList<>();
    try (PrefixIterator bounded = store().prefixIterator(store().meta(), prefix)) {
      RocksIterator it = bounded.it();
      byte[] from = startAfter.length == 0 ? prefix : Bytes.concat(Bytes.concat(prefix, flip(startAfter)), new byte[] {0});
      for (it.seek(from); it.isValid() && Bytes.startsWith(it.key(), prefix) && out.size() < limit; it.next()) {
        out.add(OpenResult.parseFrom(it.value()));
      }
    }
    return out;
  }

  void register(WriteBatch batch, long dir, String path) throws IOException {
    put(batch, dirKey(dir), path.getBytes(StandardCharsets.UTF_8));
  }

  void unregister(WriteBatch batch, long dir) throws IOException {
    try {
      batch.delete(store().meta(), dirKey(dir));
    } catch (org.rocksdb.RocksDBException e) {
      throw new IOException(e);
    }
  }

  /** The path {@code dir} is recorded at (null: not registered here). */
  String registeredPath(long dir) throws IOException {
    byte[] v = store().get(store().meta(), dirKey(dir));
    return v == null ? null : new String(v, StandardCharsets.UTF_8);
  }

  /** The snapshottable directories homed here: id → path as of allowSnapshot (or their last snapshot). */
  List<String[]> registered() {
    List<String[]> out = new ArrayList<>();
    try (PrefixIterator bounded = store().prefixIterator(store().meta(), DIRS)) {
      RocksIterator it = bounded.it();
      for (it.seek(DIRS); it.isValid() && Bytes.startsWith(it.key(), DIRS); it.next()) {
        long id = ByteBuffer.wrap(it.key(), DIRS.length, 8).getLong();
        out.add(new String[] {Long.toString(id), new String(it.value(), StandardCharsets.UTF_8)});
      }
    }
    return out;
  }

  private void put(WriteBatch batch, byte[] key, byte[] value) throws IOException {
    try {
      batch.put(store().meta(), key, value);
    } catch (org.rocksdb.RocksDBException e) {
      throw new IOException(e);
    }
  }
}
