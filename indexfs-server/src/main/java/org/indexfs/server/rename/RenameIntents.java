package org.indexfs.server.rename;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.indexfs.common.schema.Bytes;
import org.indexfs.server.ns.Namespace;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;

/**
 * The durable records of cross-slot renames (DESIGN §7). On the source's slot,
 * {@code rename.out/<txid>} names the moving entry and the slot last asked to land it; on the
 * destination's slot, {@code rename.in/<txid>} says it landed and {@code rename.void/<txid>}
 * that it never will (recovery settled it). Written in the same batches as the entries.
 */
public final class RenameIntents {
  private static final byte[] OUT = "rename.out/".getBytes(StandardCharsets.UTF_8);
  private static final byte[] IN = "rename.in/".getBytes(StandardCharsets.UTF_8);
  private static final byte[] VOID = "rename.void/".getBytes(StandardCharsets.UTF_8);

  private final Namespace ns;

  public RenameIntents(Namespace ns) {
    this.ns = ns;
  }

  /** A rename leaving this slot: entry {@code name} of {@code parentId} (inode {@code inodeId}) asked of {@code target}. */
  public record Outgoing(String txid, long parentId, String name, long inodeId, int target) {}

  public void recordOutgoing(WriteBatch batch, Outgoing o) throws IOException {
    byte[] n = o.name().getBytes(StandardCharsets.UTF_8);
    put(batch, key(OUT, o.txid()), ByteBuffer.allocate(20 + n.length).putLong(o.parentId()).putLong(o.inodeId())
        .putInt(o.target()).put(n).array());
  }

  public void dropOutgoing(WriteBatch batch, String txid) throws IOException {
    try {
      batch.delete(ns.store().meta(), key(OUT, txid));
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  public List<Outgoing> outgoing() {
    List<Outgoing> out = new ArrayList<>();
    try (RocksIterator it = ns.store().iterator(ns.store().meta(), null)) {
      for (it.seek(OUT); it.isValid() && Bytes.startsWith(it.key(), OUT); it.next()) {
        String txid = new String(it.key(), OUT.length, it.key().length - OUT.length, StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.wrap(it.value());
        long parentId = b.getLong();
        long inodeId = b.getLong();
        int target = b.getInt();
        out.add(new Outgoing(txid, parentId, new String(it.value(), 20, it.value().length - 20, StandardCharsets.UTF_8),
            inodeId, target));
      }
    }
    return out;
  }

  public void recordLanded(WriteBatch batch, String txid) throws IOException {
    put(batch, key(IN, txid), new byte[0]);
  }

  public boolean landed(String txid) throws IOException {
    return ns.store().get(ns.store().meta(), key(IN, txid)) != null;
  }

  public void recordVoid(WriteBatch batch, String txid) throws IOException {
    put(batch, key(VOID, txid), new byte[0]);
  }

  public boolean isVoid(String txid) throws IOException {
    return ns.store().get(ns.store().meta(), key(VOID, txid)) != null;
  }

  private void put(WriteBatch batch, byte[] key, byte[] value) throws IOException {
    try {
      batch.put(ns.store().meta(), key, value);
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  private static byte[] key(byte[] prefix, String txid) {
    return Bytes.concat(prefix, txid.getBytes(StandardCharsets.UTF_8));
  }
}
