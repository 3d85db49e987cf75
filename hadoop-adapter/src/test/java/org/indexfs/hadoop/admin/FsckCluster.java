package org.indexfs.hadoop.admin;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.indexfs.common.InodeIds;
import org.indexfs.common.schema.Bytes;
import org.indexfs.common.schema.EntryKey;
import org.indexfs.common.schema.Inode;
import org.indexfs.server.local.LocalCluster;
import org.indexfs.server.ns.Namespace;
import org.indexfs.server.store.MetadataStore;
import org.indexfs.server.store.NameIndex;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;

/**
 * Raw access to the slots' RocksDB of an in-process cluster, for tests that break it on purpose:
 * read, write and delete keys exactly as stored, below every cache and every rule.
 */
final class FsckCluster {
  /** A stored entry: where it is and what it holds. */
  record Stored(int slot, byte[] key, Inode inode) {
    EntryKey entryKey() {
      return EntryKey.decode(key);
    }
  }

  private final LocalCluster cluster;

  FsckCluster(LocalCluster cluster) {
    this.cluster = cluster;
  }

  MetadataStore store(int slot) {
    return cluster.server(slot).namespace().store();
  }

  byte[] get(int slot, boolean meta, byte[] key) throws IOException {
    MetadataStore s = store(slot);
    return s.get(meta ? s.meta() : s.entries(), key);
  }

  /**
   * Writes {@code value} at {@code key} (null: deletes it), durably. An entry comes with its
   * listing-order record, as every server write does (a value that cannot be decoded: the entry
   * alone); {@link #putListing} breaks the index on its own.
   */
  void put(int slot, boolean meta, byte[] key, byte[] value) throws IOException {
    MetadataStore s = store(slot);
    ColumnFamilyHandle cf = meta ? s.meta() : s.entries();
    try (WriteBatch batch = new WriteBatch()) {
      if (value == null) {
        batch.delete(cf, key);
      } else {
        batch.put(cf, key, value);
      }
      if (!meta) {
        EntryKey k = EntryKey.decode(key);
        byte[] listing = NameIndex.key(k.parentId(), k.name());
        if (value == null) {
          batch.delete(s.names(), listing);
        } else if (decodes(value)) {
          batch.put(s.names(), listing, NameIndex.value(Inode.decode(value)));
        }
      }
      s.writeDurably(batch);
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  private static boolean decodes(byte[] value) {
    try {
      Inode.decode(value);
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** The listing-order record of {@code name} in {@code parentId} on {@code slot}, as stored (null: none). */
  byte[] listing(int slot, long parentId, String name) throws IOException {
    MetadataStore s = store(slot);
    return s.get(s.names(), NameIndex.key(parentId, name));
  }

  /** Writes (null: deletes) the listing-order record of {@code name} in {@code parentId} alone, durably. */
  void putListing(int slot, long parentId, String name, byte[] value) throws IOException {
    MetadataStore s = store(slot);
    try (WriteBatch batch = new WriteBatch()) {
      if (value == null) {
        batch.delete(s.names(), NameIndex.key(parentId, name));
      } else {
        batch.put(s.names(), NameIndex.key(parentId, name), value);
      }
      s.writeDurably(batch);
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  static byte[] partitionKey(long dirId) {
    return Bytes.concat(Namespace.partitionRecordPrefix(), ByteBuffer.allocate(8).putLong(dirId).array());
  }

  static byte[] bitmapKey(long dirId) {
    return Bytes.concat(Namespace.bitmapPrefix(), ByteBuffer.allocate(8).putLong(dirId).array());
  }

  /** {@code lease/<inode id>}, as LeaseTable stores write leases. */
  static byte[] leaseKey(long inodeId) {
    return Bytes.concat("lease/".getBytes(StandardCharsets.UTF_8), ByteBuffer.allocate(8).putLong(inodeId).array());
  }

  /** {@code inode.highwater}, the id allocator's mark. */
  static byte[] highWaterKey() {
    return "inode.highwater".getBytes(StandardCharsets.UTF_8);
  }

  /** The entry {@code name} of directory {@code parentId}, on whichever slot holds it. */
  Stored find(long parentId, String name) throws IOException {
    byte[] key = EntryKey.of(parentId, name).encode();
    for (int slot = 0; slot < cluster.serverCount(); slot++) {
      byte[] v = get(slot, false, key);
      if (v != null) {
        return new Stored(slot, key, Inode.decode(v));
      }
    }
    throw new AssertionError("No slot holds entry '" + name + "' of directory " + InodeIds.format(parentId));
  }

  /** Every entry of directory {@code dirId} on {@code slot}, in key order. */
  List<Stored> entriesOf(int slot, long dirId) {
    List<Stored> out = new ArrayList<>();
    MetadataStore s = store(slot);
    byte[] prefix = EntryKey.prefix(dirId);
    try (RocksIterator it = s.iterator(s.entries(), null)) {
      for (it.seek(prefix); it.isValid() && Bytes.startsWith(it.key(), prefix); it.next()) {
        out.add(new Stored(slot, it.key(), Inode.decode(it.value())));
      }
    }
    return out;
  }

  /** Every entry of every slot. */
  List<Stored> all() {
    List<Stored> out = new ArrayList<>();
    for (int slot = 0; slot < cluster.serverCount(); slot++) {
      MetadataStore s = store(slot);
      try (RocksIterator it = s.iterator(s.entries(), null)) {
        for (it.seekToFirst(); it.isValid(); it.next()) {
          out.add(new Stored(slot, it.key(), Inode.decode(it.value())));
        }
      }
    }
    return out;
  }

  /** The path of every entry, from the directory entries of all slots. */
  Map<Long, String> paths() {
    List<Stored> all = all();
    Map<Long, Stored> byId = new HashMap<>();
    for (Stored e : all) {
      byId.put(e.inode().inodeId, e);
    }
    Map<Long, String> out = new HashMap<>();
    for (Stored e : all) {
      out.put(e.inode().inodeId, pathOf(e, byId));
    }
    return out;
  }

  private static String pathOf(Stored e, Map<Long, Stored> byId) {
    EntryKey k = e.entryKey();
    if (k.parentId() == InodeIds.NO_PARENT) {
      return "/";
    }
    if (k.parentId() == InodeIds.ROOT) {
      return "/" + k.name();
    }
    Stored parent = byId.get(k.parentId());
    // As fsck names an entry whose directory is gone (a subtree being reclaimed).
    return (parent == null ? "<directory " + InodeIds.format(k.parentId()) + ">" : pathOf(parent, byId)) + "/" + k.name();
  }

  /** Slots holding a partition record of {@code dirId}. */
  List<Integer> partitionSlots(long dirId) throws IOException {
    List<Integer> out = new ArrayList<>();
    for (int slot = 0; slot < cluster.serverCount(); slot++) {
      if (get(slot, true, partitionKey(dirId)) != null) {
        out.add(slot);
      }
    }
    return out;
  }
}
