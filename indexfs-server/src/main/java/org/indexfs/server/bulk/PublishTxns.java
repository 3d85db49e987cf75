package org.indexfs.server.bulk;

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
 * The durable records of a publish into a directory split across slots, a two-phase commit driven
 * by the directory's home slot (the pattern of {@link org.indexfs.server.rename.RenameIntents}):
 * on the home, {@code bulk.tx/<txid>} names the participants and whether the publish is decided
 * (written PREPARING before any share is sent, COMMITTED in the batch that stages the home's own
 * share — the commit point); on a partition's slot, {@code bulk.part/<txid>} is its staged share,
 * and {@code bulk.void/<txid>} says that a share never prepared there never will be (an ABORT
 * arrived first). All live in column family meta, written with {@code ns.mutate} (journaled).
 */
final class PublishTxns {
  private static final byte[] TX = "bulk.tx/".getBytes(StandardCharsets.UTF_8);
  private static final byte[] PART = "bulk.part/".getBytes(StandardCharsets.UTF_8);
  private static final byte[] VOID = "bulk.void/".getBytes(StandardCharsets.UTF_8);

  private final Namespace ns;

  PublishTxns(Namespace ns) {
    this.ns = ns;
  }

  /** The home's record: {@code committed} once decided; {@code intentKey} its own share's ingest intent (may be empty). */
  record Tx(String txid, long dirId, boolean committed, List<Integer> participants, byte[] intentKey) {
    byte[] encode() {
      ByteBuffer b = ByteBuffer.allocate(1 + 8 + 4 + 4 * participants.size() + 4 + intentKey.length);
      b.put((byte) (committed ? 1 : 0)).putLong(dirId).putInt(participants.size());
      participants.forEach(b::putInt);
      b.putInt(intentKey.length).put(intentKey);
      return b.array();
    }

    static Tx decode(String txid, byte[] v) {
      ByteBuffer b = ByteBuffer.wrap(v);
      boolean committed = b.get() == 1;
      long dirId = b.getLong();
      List<Integer> slots = new ArrayList<>();
      for (int i = b.getInt(); i > 0; i--) {
        slots.add(b.getInt());
      }
      byte[] intent = new byte[b.getInt()];
      b.get(intent);
      return new Tx(txid, dirId, committed, slots, intent);
    }

    Tx decided() {
      return new Tx(txid, dirId, true, participants, intentKey);
    }
  }

  /** A partition slot's staged share: the directory it belongs to and its ingest intent. */
  record Part(String txid, long dirId, BulkIngest.Intent intent) {}

  void putTx(WriteBatch batch, Tx tx) throws IOException {
    put(batch, key(TX, tx.txid()), tx.encode());
  }

  void dropTx(WriteBatch batch, String txid) throws IOException {
    delete(batch, key(TX, txid));
  }

  List<Tx> txs() {
    List<Tx> out = new ArrayList<>();
    scan(TX, (txid, v) -> out.add(Tx.decode(txid, v)));
    return out;
  }

  void putPart(WriteBatch batch, Part p) throws IOException {
    byte[] intent = p.intent().encode();
    put(batch, key(PART, p.txid()), ByteBuffer.allocate(8 + intent.length).putLong(p.dirId()).put(intent).array());
  }

  void dropPart(WriteBatch batch, String txid) throws IOException {
    delete(batch, key(PART, txid));
  }

  Part part(String txid) throws IOException {
    byte[] v = ns.store().get(ns.store().meta(), key(PART, txid));
    return v == null ? null : decodePart(txid, v);
  }

  List<Part> parts() {
    List<Part> out = new ArrayList<>();
    scan(PART, (txid, v) -> out.add(decodePart(txid, v)));
    return out;
  }

  private static Part decodePart(String txid, byte[] v) {
    ByteBuffer b = ByteBuffer.wrap(v);
    long dirId = b.getLong();
    byte[] rest = new byte[b.remaining()];
    b.get(rest);
    return new Part(txid, dirId, BulkIngest.Intent.decode(rest));
  }

  void putVoid(WriteBatch batch, String txid) throws IOException {
    put(batch, key(VOID, txid), new byte[0]);
  }

  boolean isVoid(String txid) throws IOException {
    return ns.store().get(ns.store().meta(), key(VOID, txid)) != null;
  }

  private interface Visitor {
    void visit(String txid, byte[] value);
  }

  private void scan(byte[] prefix, Visitor v) {
    try (RocksIterator it = ns.store().iterator(ns.store().meta(), null)) {
      for (it.seek(prefix); it.isValid() && Bytes.startsWith(it.key(), prefix); it.next()) {
        v.visit(new String(it.key(), prefix.length, it.key().length - prefix.length, StandardCharsets.UTF_8), it.value());
      }
    }
  }

  private void put(WriteBatch batch, byte[] key, byte[] value) throws IOException {
    try {
      batch.put(ns.store().meta(), key, value);
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  private void delete(WriteBatch batch, byte[] key) throws IOException {
    try {
      batch.delete(ns.store().meta(), key);
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  private static byte[] key(byte[] prefix, String txid) {
    return Bytes.concat(prefix, txid.getBytes(StandardCharsets.UTF_8));
  }
}
