package org.indexfs.server.store;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Where a slot's committed changes are replicated, besides its own RocksDB (DESIGN §11, IndexFS
 * §II-E): the one interface between the store and the replication mechanism. Today it is a journal
 * on the data tier ({@code journal.JournalWriter}); a Raft group per slot could implement it
 * instead without touching any operation.
 *
 * <p>The store calls {@link #next} and {@link #append} under its commit lock, in commit order, so the
 * log holds the changes in the order they were applied; {@link #sync} is called after the WAL fsync
 * by whoever makes writes durable (the group commit), and a reply leaves only after it returned.
 */
public interface ChangeLog {
  /** The position the next change will have. */
  LogPosition next();

  /** The change at {@code at} (already holding its position record) was applied: its batch's bytes. */
  void append(LogPosition at, byte[] batch);

  /** Copies an SST file about to be ingested to where replicas can read it; returns its name there. */
  String ship(Path sst) throws IOException;

  /** The change at {@code at} ingested {@code shipped} into {@code columnFamily}: replicas ingest the same file. */
  void appendIngest(LogPosition at, String shipped, String columnFamily) throws IOException;

  /**
   * Makes every change appended so far durable in the log. Throws when that cannot be done, and
   * for good when this writer was fenced by a successor: nothing more may be acknowledged.
   */
  void sync() throws IOException;
}
