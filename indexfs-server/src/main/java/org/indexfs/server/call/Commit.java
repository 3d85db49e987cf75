package org.indexfs.server.call;

import java.io.IOException;
import java.util.List;
import org.indexfs.server.ns.Namespace;
import org.indexfs.server.store.GroupCommit;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The commit of a call's changes, in the order it happens (DESIGN §10): the operation fills one
 * batch under its directory locks ({@link Namespace#mutateLocked}); the call's retry mark joins that
 * batch ({@link #mark}) and is spent once it is written ({@link #written}); the batch takes a
 * ticket from {@link GroupCommit}; after the locks are released, {@link #durability} decides what
 * the reply waits for — the ticket's fsync, nothing (an async subtree, synced within its window), or
 * this thread (work outside a call, and steps that must not run ahead of their log). The retry
 * cache's answer records of an I/O thread's read are written together when the read ends
 * ({@link #readComplete}), before its replies leave. Then {@link Reply}.
 *
 * <p>Every method takes the call it commits for; null means work outside any call (background
 * threads, operations run directly in tests), which waits for its own fsync as it always did.
 */
public final class Commit {
  private static final Logger LOG = LoggerFactory.getLogger(Commit.class);

  private Commit() {}

  /** Puts the call's retry mark into {@code batch}, the batch that makes its change, atomically with it. */
  public static void mark(Call call, WriteBatch batch, ColumnFamilyHandle calls) throws IOException {
    byte[][] mark = call == null ? null : call.mark();
    if (mark == null) {
      return;
    }
    try {
      batch.put(calls, mark[0], mark[1]);
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  /** The batch is written: its mark is spent, later batches of the call carry none. */
  public static void written(Call call) {
    if (call != null) {
      call.mark(null);
    }
  }

  /**
   * What waits for the write with {@code ticket}, once the locks are released: the call's reply
   * when {@code deferrable} (the reply is sent by the syncer right after the fsync; under an async
   * subtree, {@code early}, it is sent at once and the fsync follows within the window), otherwise
   * this thread.
   */
  public static void durability(Call call, long ticket, boolean early, boolean deferrable, GroupCommit groupCommit)
      throws IOException {
    if (deferrable && call != null && early) {
      call.answerBefore(ticket);
      groupCommit.syncWithin(ticket);
    } else if (deferrable && call != null) {
      call.waitFor(ticket);
    } else {
      groupCommit.awaitDurable(ticket);
    }
  }

  /**
   * Waits until what the running call wrote is durable, even what its reply need not wait for: for
   * the step of an operation that tells another server about it. Not on an I/O thread.
   */
  public static void awaitWritten(GroupCommit groupCommit) throws IOException {
    Call call = Call.current();
    if (call != null && call.newestWrite() > 0) {
      groupCommit.awaitDurable(call.newestWrite());
    }
  }

  /**
   * Records a call's answer ({@code key → value} in the calls column family) as {@link
   * Namespace#bookkeep} does. Inside an I/O thread's read the record joins the others of that read
   * and they are written in one batch when it ends ({@link #readComplete}) — one RocksDB write per
   * read instead of one per call. The call's mark, written with its change, answers a retry
   * meanwhile, as it does when a crash loses a record.
   */
  public static void recordAnswer(Namespace ns, byte[] key, byte[] value) throws IOException {
    Call call = Call.current();
    ReadBatch read = call == null ? null : call.read();
    if (read != null && read.open()) {
      read.answers.add(new byte[][] {key, value});
      return;
    }
    ns.bookkeep(m -> {
      putCall(ns, m.batch(), key, value);
      return null;
    });
  }

  /** The I/O thread has run one read's calls: writes their answer records, then lets the WAL sync start. */
  public static void readComplete(ReadBatch read, Namespace ns) {
    if (!read.answers.isEmpty()) {
      List<byte[][]> records = List.copyOf(read.answers);
      read.answers.clear();
      try {
        ns.bookkeep(m -> {
          for (byte[][] a : records) {
            putCall(ns, m.batch(), a[0], a[1]);
          }
          return null;
        });
      } catch (IOException | RuntimeException e) {
        // The answers stay in memory; after a restart a retry of these calls is answered from their marks.
        LOG.warn("Could not record the answers of {} calls: {}", records.size(), e.toString());
      }
    }
    ns.groupCommit().readComplete(read);
  }

  private static void putCall(Namespace ns, WriteBatch batch, byte[] key, byte[] value) throws IOException {
    try {
      batch.put(ns.store().calls(), key, value);
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }
}
