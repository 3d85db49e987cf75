package org.indexfs.server.quota;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hdfs.protocol.DSQuotaExceededException;
import org.apache.hadoop.hdfs.protocol.NSQuotaExceededException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.schema.Bytes;
import org.indexfs.proto.Code;
import org.indexfs.proto.QuotaGrant;
import org.indexfs.proto.QuotaRequest;
import org.indexfs.proto.Request;
import org.indexfs.server.ns.Namespace;
import org.indexfs.server.peer.Peers;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;

/**
 * The quotas of the directories homed on this slot and the caps it granted each slot
 * ({@link QuotaShares}): {@code quota.def/<dirId>} → (namespace quota, space quota) and
 * {@code quota.cap/<dirId>/<slot>} → (entries, space), durable before they are answered. A grant
 * fits when the caps of the other slots plus what the asking slot needs stay within the quota;
 * when it does not, the home first takes back every other slot's headroom (so they answer their
 * exact usage) and decides again — a refusal then reports the directory's exact usage, as HDFS's.
 * Only a recall lowers a slot's cap (under that slot's lock, so nothing it admitted is missed); a
 * grant never does. So every slot's usage stays within its cap as recorded here, and the caps here
 * add up to no more than the quota: the sum of usages, the directory's usage, never passes it.
 */
public final class QuotaHome {
  private static final byte[] DEF = "quota.def/".getBytes(StandardCharsets.UTF_8);
  private static final byte[] CAP = "quota.cap/".getBytes(StandardCharsets.UTF_8);

  /** A directory's quotas; -1: none in that dimension. */
  public record Definition(long entries, long space) {}

  private final Namespace ns;
  private final Peers peers;
  private final QuotaShares shares;
  private final Map<Long, Object> turns = new ConcurrentHashMap<>();
  private final Map<Long, Long> seqs = new ConcurrentHashMap<>();

  public QuotaHome(Namespace ns, Peers peers, QuotaShares shares) {
    this.ns = ns;
    this.peers = peers;
    this.shares = shares;
    shares.useHome(this);
  }

  private Object turn(long dirId) {
    return turns.computeIfAbsent(dirId, k -> new Object());
  }

  private static byte[] defKey(long dirId) {
    return ByteBuffer.allocate(DEF.length + 8).put(DEF).putLong(dirId).array();
  }

  private static byte[] capKey(long dirId, int slot) {
    return ByteBuffer.allocate(CAP.length + 12).put(CAP).putLong(dirId).putInt(slot).array();
  }

  /** The quotas of {@code dirId} if it is homed here and has any; null otherwise. */
  public Definition definition(long dirId) throws IOException {
    return definition(ns.store(), dirId);
  }

  /** The quotas of {@code dirId} kept in {@code store} (its home's), or null. */
  public static Definition definition(org.indexfs.server.store.MetadataStore store, long dirId) throws IOException {
    byte[] v = store.get(store.meta(), defKey(dirId));
    if (v == null) {
      return null;
    }
    ByteBuffer b = ByteBuffer.wrap(v);
    return new Definition(b.getLong(), b.getLong());
  }

  private Map<Integer, long[]> caps(long dirId) {
    Map<Integer, long[]> out = new HashMap<>();
    byte[] prefix = ByteBuffer.allocate(CAP.length + 8).put(CAP).putLong(dirId).array();
    try (RocksIterator it = ns.store().iterator(ns.store().meta(), null)) {
      for (it.seek(prefix); it.isValid() && Bytes.startsWith(it.key(), prefix); it.next()) {
        ByteBuffer b = ByteBuffer.wrap(it.value());
        out.put(ByteBuffer.wrap(it.key(), prefix.length, 4).getInt(), new long[] {b.getLong(), b.getLong()});
      }
    }
    return out;
  }

  private void putCap(WriteBatch batch, long dirId, int slot, long entries, long space) throws IOException {
    try {
      batch.put(ns.store().meta(), capKey(dirId, slot), ByteBuffer.allocate(16).putLong(entries).putLong(space).array());
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  private long nextSeq(long dirId) {
    return seqs.merge(dirId, 1L, Long::sum) + System.currentTimeMillis() * 1_000;
  }

  /**
   * Sets the quotas of {@code dirId} (-1 -1: removes them). A directory getting quotas starts
   * counting from {@code usageEntries}/{@code usageSpace} (its subtree now, counted here); every
   * slot first drops what it may have counted under an earlier quota of the directory.
   */
  public void define(long dirId, long entries, long space, long usageEntries, long usageSpace) throws IOException {
    synchronized (turn(dirId)) {
      Definition old = definition(dirId);
      if (entries < 0 && space < 0) {
        ns.mutate(batch -> {
          deleteAll(batch, dirId);
          return null;
        });
        forgetEverywhere(dirId);
        return;
      }
      if (old == null) {
        forgetEverywhere(dirId);
        ns.mutate(batch -> {
          deleteAll(batch, dirId);
          shares.counters().set(batch, dirId, usageEntries, usageSpace);
          putCap(batch, dirId, ns.slot(), usageEntries, usageSpace);
          putDefinition(batch, dirId, entries, space);
          return null;
        });
      } else {
        ns.mutate(batch -> {
          putDefinition(batch, dirId, entries, space);
          return null;
        });
        recallAll(dirId, -1); // a lowered quota must not leave caps above it
      }
    }
  }

  /**
   * The directory {@code dirId}, homed on {@code store}'s slot, is gone: its quota goes with it (other
   * slots' counts of it are never read again: ids are not reused).
   */
  public static void drop(WriteBatch batch, org.indexfs.server.store.MetadataStore store, long dirId) throws IOException {
    try {
      batch.delete(store.meta(), defKey(dirId));
      byte[] prefix = ByteBuffer.allocate(CAP.length + 8).put(CAP).putLong(dirId).array();
      batch.deleteRange(store.meta(), prefix, ByteBuffer.allocate(CAP.length + 8).put(CAP).putLong(dirId + 1).array());
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  private void putDefinition(WriteBatch batch, long dirId, long entries, long space) throws IOException {
    try {
      batch.put(ns.store().meta(), defKey(dirId), ByteBuffer.allocate(16).putLong(entries).putLong(space).array());
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  private void deleteAll(WriteBatch batch, long dirId) throws IOException {
    drop(batch, ns.store(), dirId);
  }

  private void forgetEverywhere(long dirId) throws IOException {
    for (int slot = 0; slot < peers.slotCount(); slot++) {
      if (slot == ns.slot()) {
        shares.forget(dirId);
      } else {
        peers.call(slot, Request.newBuilder().setQuota(QuotaRequest.newBuilder()
            .setAction(QuotaRequest.Action.FORGET).setDirId(dirId)));
      }
    }
  }

  /** Takes back every slot's headroom but {@code except}'s; their caps become their exact usage. */
  private void recallAll(long dirId, int except) throws IOException {
    long seq = nextSeq(dirId);
    Map<Integer, long[]> used = new HashMap<>();
    for (int slot = 0; slot < peers.slotCount(); slot++) {
      if (slot == except) {
        continue;
      }
      QuotaGrant g = slot == ns.slot() ? shares.recall(dirId, seq)
          : peers.call(slot, Request.newBuilder().setQuota(QuotaRequest.newBuilder()
              .setAction(QuotaRequest.Action.RECALL).setDirId(dirId).setSeq(seq))).getQuotaGrant();
      used.put(slot, new long[] {g.getNsUsed(), g.getDsUsed()});
    }
    ns.mutate(batch -> {
      for (Map.Entry<Integer, long[]> e : used.entrySet()) {
        putCap(batch, dirId, e.getKey(), e.getValue()[0], e.getValue()[1]);
      }
      return null;
    });
  }

  /** A slot's request for a larger share ({@link QuotaShares#obtain}); refusals are HDFS's quota exceptions. */
  public QuotaGrant grant(QuotaRequest ask) throws IOException {
    long dirId = ask.getDirId();
    synchronized (turn(dirId)) {
      Definition def = definition(dirId);
      if (def == null) {
        // No quota (any more): the asking slot saw a directory whose quota was just removed.
        return QuotaGrant.newBuilder().setNsCap(QuotaShares.UNLIMITED).setDsCap(QuotaShares.UNLIMITED)
            .setSeq(nextSeq(dirId)).build();
      }
      // A grant never lowers the asking slot's cap: changes it admitted after it asked are within it.
      long[] held = caps(dirId).getOrDefault(ask.getSlot(), new long[2]);
      long needEntries = Math.max(held[0], ask.getNsUsed() + ask.getNsWant());
      long needSpace = Math.max(held[1], ask.getDsUsed() + ask.getDsWant());
      long[] others = others(dirId, ask.getSlot());
      if (!fits(def, others, needEntries, needSpace, ask)) {
        recallAll(dirId, ask.getSlot());
        others = others(dirId, ask.getSlot());
        if (!fits(def, others, needEntries, needSpace, ask)) {
          throw exceeded(def, others, ask.getNsUsed() + ask.getNsWant(), ask.getDsUsed() + ask.getDsWant(), ask);
        }
      }
      int slots = Math.max(1, peers.slotCount());
      long entriesCap = def.entries() < 0 ? QuotaShares.UNLIMITED
          : needEntries + Math.max(0, def.entries() - others[0] - needEntries) / (2L * slots);
      long spaceCap = def.space() < 0 ? QuotaShares.UNLIMITED
          : needSpace + Math.max(0, def.space() - others[1] - needSpace) / (2L * slots);
      long seq = nextSeq(dirId);
      ns.mutate(batch -> {
        putCap(batch, dirId, ask.getSlot(), entriesCap, spaceCap);
        return null;
      });
      return QuotaGrant.newBuilder().setNsCap(entriesCap).setDsCap(spaceCap).setSeq(seq).build();
    }
  }

  /** The caps granted to every slot but {@code slot}: {entries, space}. */
  private long[] others(long dirId, int slot) {
    long[] sum = new long[2];
    for (Map.Entry<Integer, long[]> e : caps(dirId).entrySet()) {
      if (e.getKey() != slot) {
        sum[0] += e.getValue()[0];
        sum[1] += e.getValue()[1];
      }
    }
    return sum;
  }

  private static boolean fits(Definition def, long[] others, long needEntries, long needSpace, QuotaRequest ask) {
    boolean entriesFit = def.entries() < 0 || ask.getNsWant() <= 0 || others[0] + needEntries <= def.entries();
    boolean spaceFits = def.space() < 0 || ask.getDsWant() <= 0 || others[1] + needSpace <= def.space();
    return entriesFit && spaceFits;
  }

  /** HDFS's refusal, with the directory's usage including the change (its NameNode verifies the same sum). */
  private static IndexFsException exceeded(Definition def, long[] others, long needEntries, long needSpace,
      QuotaRequest ask) {
    if (def.entries() >= 0 && ask.getNsWant() > 0 && others[0] + needEntries > def.entries()) {
      long count = others[0] + needEntries;
      if (ask.getOneByOne()) {
        // The first new name past the quota (HDFS leaves those before it made; IndexFS makes none).
        count = Math.min(count, Math.max(def.entries(), others[0] + ask.getNsUsed()) + 1);
      }
      NSQuotaExceededException e = new NSQuotaExceededException(def.entries(), count);
      e.setPathName(ask.getPath());
      return new IndexFsException(Code.NS_QUOTA_EXCEEDED, e.getMessage());
    }
    DSQuotaExceededException e = new DSQuotaExceededException(def.space(), others[1] + needSpace);
    e.setPathName(ask.getPath());
    return new IndexFsException(Code.DS_QUOTA_EXCEEDED, e.getMessage());
  }
}
