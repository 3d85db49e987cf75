package org.indexfs.server.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.indexfs.common.giga.GigaIndex;
import org.indexfs.common.schema.Bytes;
import org.indexfs.common.schema.EntryKey;
import org.indexfs.common.schema.Inode;
import org.indexfs.common.schema.NameHash;
import org.rocksdb.EnvOptions;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Snapshot;
import org.rocksdb.SstFileWriter;
import org.rocksdb.WriteBatch;

/**
 * The name-ordered index beside the hash-ordered entries (DESIGN §13, after LocoFS): column
 * family {@code names}, {@code parentId (8) | name}, so one directory's names on this slot are one
 * key range in HDFS order. Entries stay keyed by hash because a GIGA+ partition must be one hash
 * range; listings read this index instead.
 *
 * <p>HDFS sorts names by their bytes compared as <em>signed</em> values ({@code
 * DFSUtilClient.compareBytes}), so names with bytes of 0x80 and above come before ASCII. RocksDB
 * compares keys unsigned; storing every name byte with its top bit flipped makes the two orders
 * agree.
 *
 * <p>The value is the entry's inode without its inline bytes, so a page of a listing is one
 * sequential scan. Every record is written in the same batch as its entry: by
 * {@code Namespace.putEntry}/{@code deleteEntry}, and by GIGA+ splits, which ship and delete the
 * moving names' records beside their entries.
 */
public final class NameIndex {
  /** Meta key recording that this store's index covers every entry (stores made before it had none). */
  private static final byte[] BUILT = "names-index/built".getBytes(StandardCharsets.UTF_8);
  private static final int REBUILD_BATCH = 10_000;

  private final MetadataStore store;

  NameIndex(MetadataStore store) {
    this.store = store;
  }

  /** The key of {@code name} in directory {@code parentId}. */
  public static byte[] key(long parentId, String name) {
    return key(parentId, name.getBytes(StandardCharsets.UTF_8));
  }

  static byte[] key(long parentId, byte[] nameBytes) {
    byte[] k = new byte[EntryKey.PREFIX_BYTES + nameBytes.length];
    ByteBuffer.wrap(k).putLong(parentId);
    for (int i = 0; i < nameBytes.length; i++) {
      k[EntryKey.PREFIX_BYTES + i] = (byte) (nameBytes[i] ^ 0x80);
    }
    return k;
  }

  /** The name a key holds. */
  public static String nameOf(byte[] key) {
    byte[] n = new byte[key.length - EntryKey.PREFIX_BYTES];
    for (int i = 0; i < n.length; i++) {
      n[i] = (byte) (key[EntryKey.PREFIX_BYTES + i] ^ 0x80);
    }
    return new String(n, StandardCharsets.UTF_8);
  }

  /** A record's value: the entry's inode without its inline bytes. */
  public static byte[] value(Inode inode) {
    if (inode.inlineData == null) {
      return inode.encode();
    }
    Inode attributes = inode.copy();
    attributes.inlineData = null;
    return attributes.encode();
  }

  public void put(WriteBatch batch, long parentId, String name, Inode inode) throws IOException {
    try {
      batch.put(store.names(), key(parentId, name), value(inode));
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  public void delete(WriteBatch batch, long parentId, String name) throws IOException {
    try {
      batch.delete(store.names(), key(parentId, name));
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  /** One listed entry: its name and its attributes (no inline bytes). */
  public record Named(String name, Inode inode) {}

  /** Up to {@code limit} entries of {@code dirId} held here, in HDFS order. */
  public record Page(List<Named> entries, boolean hasMore) {}

  /** The entries of {@code dirId} on this slot whose names come after {@code startAfter} (UTF-8; empty: from the first). */
  public Page page(long dirId, byte[] startAfter, int limit) {
    byte[] prefix = EntryKey.prefix(dirId);
    byte[] from = key(dirId, startAfter);
    List<Named> out = new ArrayList<>(Math.min(limit, 1024));
    try (PrefixIterator bounded = store.prefixIterator(store.names(), prefix)) {
      RocksIterator it = bounded.it();
      it.seek(from);
      if (startAfter.length > 0 && it.isValid() && java.util.Arrays.equals(it.key(), from)) {
        it.next();
      }
      // key() copies the key out through JNI: once per entry.
      for (byte[] key; it.isValid() && Bytes.startsWith(key = it.key(), prefix); it.next()) {
        if (out.size() == limit) {
          return new Page(out, true);
        }
        out.add(new Named(nameOf(key), Inode.decode(it.value())));
      }
    }
    return new Page(out, false);
  }

  /**
   * Writes the records of the names of {@code dirId} moving to GIGA+ partition {@code child}, as
   * {@code snapshot} sees them, into an SST file (they are already in key order); returns how many.
   */
  public long exportMoving(Snapshot snapshot, long dirId, int child, Path file) throws IOException {
    long n = 0;
    byte[] prefix = EntryKey.prefix(dirId);
    try (ReadOptions read = new ReadOptions().setSnapshot(snapshot);
        RocksIterator it = store.iterator(store.names(), read);
        EnvOptions env = new EnvOptions();
        Options options = new Options();
        SstFileWriter writer = new SstFileWriter(env, options)) {
      for (it.seek(prefix); it.isValid() && Bytes.startsWith(it.key(), prefix); it.next()) {
        if (!moves(it.key(), child)) {
          continue;
        }
        if (n == 0) {
          writer.open(file.toString());
        }
        writer.put(it.key(), it.value());
        n++;
      }
      if (n > 0) {
        writer.finish();
      }
    } catch (RocksDBException e) {
      throw new IOException("Cannot write split file " + file + ": " + e.getMessage(), e);
    }
    return n;
  }

  /** Deletes (in {@code batch}) the records of the names of {@code dirId} here that belong to partition {@code child}. */
  public void deleteMoving(WriteBatch batch, long dirId, int child) throws IOException {
    byte[] prefix = EntryKey.prefix(dirId);
    try (RocksIterator it = store.iterator(store.names(), null)) {
      for (it.seek(prefix); it.isValid() && Bytes.startsWith(it.key(), prefix); it.next()) {
        if (moves(it.key(), child)) {
          batch.delete(store.names(), it.key());
        }
      }
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  private static boolean moves(byte[] key, int child) {
    return GigaIndex.movesTo(NameHash.of(nameOf(key)), child);
  }

  /**
   * A store written before the index existed gets it built from its entries once, at open; then
   * (and on a new store) the marker says it is complete.
   */
  void ensureBuilt() throws IOException {
    if (store.get(store.meta(), BUILT) != null) {
      return;
    }
    long n = 0;
    WriteBatch batch = new WriteBatch();
    try (RocksIterator it = store.iterator(store.entries(), null)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        EntryKey k = EntryKey.decode(it.key());
        if (k.name().isEmpty()) {
          continue; // the root: nobody's child
        }
        batch.put(store.names(), key(k.parentId(), k.name()), value(Inode.decode(it.value())));
        if (++n % REBUILD_BATCH == 0) {
          store.write(batch);
          batch.close();
          batch = new WriteBatch();
        }
      }
      batch.put(store.meta(), BUILT, new byte[0]);
      store.writeDurably(batch);
    } catch (RocksDBException e) {
      throw new IOException("Cannot build the name index: " + e.getMessage(), e);
    } finally {
      batch.close();
    }
    if (n > 0) {
      org.slf4j.LoggerFactory.getLogger(NameIndex.class).info("Built the name index of {} entries (store made before it)", n);
    }
  }
}
