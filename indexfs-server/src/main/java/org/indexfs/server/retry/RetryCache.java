package org.indexfs.server.retry;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.indexfs.proto.Code;
import org.indexfs.proto.Response;
import org.indexfs.server.call.Call;
import org.indexfs.server.call.Commit;
import org.indexfs.server.ns.Namespace;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;

/**
 * The outcomes of recent non-idempotent calls, so a call retried after a lost answer (a failover,
 * a broken connection) gets its first answer instead of running twice — the NameNode's
 * {@code RetryCache} (DESIGN §11). Journaled: a call's first batch carries a mark that it was
 * applied, and its answer is written right after, both in the slot's store (and so in its journal),
 * so a standby that takes over answers retries as the old active would have. Recent answers are
 * also kept in memory; records older than {@code indexfs.retry-cache.expiry-ms} are purged.
 *
 * <p>A retry that finds only the mark (the server stopped between the call's batch and its answer)
 * is answered from the namespace by {@link AppliedAnswers}.
 */
public final class RetryCache {
  /** Answers that say nothing about the call's effect: a retry runs it (again) instead. */
  private static final Set<Code> NOT_FINAL = EnumSet.of(Code.NOT_SERVING, Code.SERVER_BUSY, Code.WRONG_SERVER,
      Code.RESOLVE_ELSEWHERE, Code.STALE_RESOLUTION, Code.INTERNAL_ERROR, Code.NO_SPACE, Code.SAFE_MODE,
      // A client waits out another's localization (bulk insertion) by sending the call again.
      Code.SUBTREE_LOCALIZED);

  /** What a lookup found. */
  sealed interface Lookup {}

  /** The call was answered: this is its answer. */
  record Answered(Response answer) implements Lookup {}

  /** The call is running right now (this is a duplicate): wait for its answer. */
  record Running(CompletableFuture<Response> answer) implements Lookup {}

  /** The call's first batch was applied, its answer not recorded; the caller now owns the call. */
  record Applied() implements Lookup {}

  /** Never seen: the caller now owns the call and runs it. */
  record Unknown() implements Lookup {}

  private final Namespace ns;
  private final long expiryMs;
  private final Cache<CallKey, Response> answered;
  private final ConcurrentHashMap<CallKey, CompletableFuture<Response>> running = new ConcurrentHashMap<>();

  public RetryCache(Namespace ns, long expiryMs, int entries) {
    this.ns = ns;
    this.expiryMs = expiryMs;
    this.answered = CacheBuilder.newBuilder().maximumSize(entries)
        .expireAfterWrite(expiryMs, TimeUnit.MILLISECONDS).build();
  }

  /** Looks {@code key} up; unless it is answered or running, the caller owns the call until {@link #finish}/{@link #release}. */
  Lookup begin(CallKey key) throws IOException {
    Response known = answered.getIfPresent(key);
    if (known != null) {
      return new Answered(known);
    }
    CompletableFuture<Response> mine = new CompletableFuture<>();
    CompletableFuture<Response> other = running.putIfAbsent(key, mine);
    if (other != null) {
      return new Running(other);
    }
    byte[] stored;
    try {
      stored = ns.store().get(ns.store().calls(), key.encode());
    } catch (IOException | RuntimeException e) {
      release(key);
      throw e;
    }
    if (stored == null || CallRecord.writtenAt(stored) < System.currentTimeMillis() - expiryMs) {
      return new Unknown();
    }
    CallRecord record = CallRecord.decode(stored);
    if (record.appliedOnly()) {
      return new Applied();
    }
    answered.put(key, record.answer());
    running.remove(key, mine);
    mine.complete(record.answer());
    return new Answered(record.answer());
  }

  /** The next batch this thread writes marks the call as applied (atomically with its change). */
  void markApplied(CallKey key) {
    markNextWrite(key.encode(), CallRecord.applied(System.currentTimeMillis()));
  }

  /**
   * The call this thread runs marks its next batch with {@code answer}, the answer it gives if that
   * batch's change stands: a publish's intent (single slot, undone by recovery when its ingest did
   * not happen) or its decision (split, never undone). A retry after a crash then gets it
   * ({@link AppliedAnswers}) instead of running the publish again. Returns the call's key (to
   * forget the mark when the change is undone), or null when no call is marked.
   */
  public static byte[] landsWith(Namespace ns, Response answer) {
    byte[] key = pendingMark();
    if (key != null) {
      markNextWrite(key, CallRecord.landed(System.currentTimeMillis(), answer));
    }
    return key;
  }

  /**
   * As {@link #landsWith}, for a publish that ingests nothing (every entry refused): the mark and
   * its answer are written now, alone, before the publish consumes its file and ends its lease.
   */
  public static void recordLanded(Namespace ns, Response answer) throws IOException {
    byte[] key = pendingMark();
    if (key == null) {
      return;
    }
    byte[] value = CallRecord.landed(System.currentTimeMillis(), answer);
    markNextWrite(null, null);
    ns.mutate(batch -> {
      try {
        batch.put(ns.store().calls(), key, value);
      } catch (RocksDBException e) {
        throw new IOException(e);
      }
      return null;
    });
  }

  /**
   * The call owned by this thread ended with {@code answer}: a final one is recorded (by the end of
   * the I/O thread's read, before the reply leaves; see {@link Commit#recordAnswer}) and handed to
   * duplicates waiting for it.
   */
  void finish(CallKey key, Response answer) throws IOException {
    markNextWrite(null, null);
    try {
      if (!NOT_FINAL.contains(answer.getCode())) {
        Commit.recordAnswer(ns, key.encode(), CallRecord.answered(System.currentTimeMillis(), answer));
        answered.put(key, answer);
      }
    } finally {
      CompletableFuture<Response> f = running.remove(key);
      if (f != null) {
        f.complete(answer);
      }
    }
  }

  /** Gives up ownership without an answer (the call moves to another thread); duplicates look again. */
  void release(CallKey key) {
    markNextWrite(null, null);
    CompletableFuture<Response> f = running.remove(key);
    if (f != null) {
      f.completeExceptionally(new IllegalStateException("released"));
    }
  }

  /** Records {@code answer} for {@code key} in {@code batch}: a call settled in the background (a cross-slot rename). */
  public void recordIn(WriteBatch batch, CallKey key, Response answer) throws IOException {
    put(batch, key, CallRecord.answered(System.currentTimeMillis(), answer));
    answered.put(key, answer);
  }

  /** Removes {@code key}'s mark in {@code batch}: the call's change was rolled back, so a retry runs it afresh. */
  public void forgetIn(WriteBatch batch, CallKey key) throws IOException {
    try {
      batch.delete(ns.store().calls(), key.encode());
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
    answered.invalidate(key);
  }

  private void put(WriteBatch batch, CallKey key, byte[] value) throws IOException {
    try {
      batch.put(ns.store().calls(), key.encode(), value);
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  /** Deletes the records older than the expiry, a thousand per batch; returns how many. */
  public int purge() throws IOException {
    long oldest = System.currentTimeMillis() - expiryMs;
    List<byte[]> expired = new ArrayList<>();
    try (RocksIterator it = ns.store().iterator(ns.store().calls(), null)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        if (CallRecord.writtenAt(it.value()) < oldest) {
          expired.add(it.key());
        }
      }
    }
    for (int from = 0; from < expired.size(); from += 1000) {
      List<byte[]> chunk = expired.subList(from, Math.min(expired.size(), from + 1000));
      ns.mutate(batch -> {
        for (byte[] k : chunk) {
          try {
            batch.delete(ns.store().calls(), k);
          } catch (RocksDBException e) {
            throw new IOException(e);
          }
        }
        return null;
      });
    }
    return expired.size();
  }

  /** Calls remembered in memory (metrics, tests). */
  public long size() {
    return answered.size();
  }

  /**
   * Puts {@code key → value} into the calls column family with the next batch the running call
   * writes, atomically with it ({@link Commit#mark}); {@code null} forgets a mark not written.
   */
  private static void markNextWrite(byte[] key, byte[] value) {
    Call call = Call.current();
    if (call != null) {
      call.mark(key == null ? null : new byte[][] {key, value});
    }
  }

  /** The key of the mark the running call's next batch carries (null: none). */
  private static byte[] pendingMark() {
    Call call = Call.current();
    byte[][] mark = call == null ? null : call.mark();
    return mark == null ? null : mark[0];
  }
}
