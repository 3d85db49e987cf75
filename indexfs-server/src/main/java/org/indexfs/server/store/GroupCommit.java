package org.indexfs.server.store;

import java.io.IOException;

/**
 * Group commit for {@code indexfs.wal.sync=true}: writers append to the WAL without fsync, take a
 * ticket, and wait until a sync covers it. The first waiter becomes the leader and fsyncs once
 * for everybody who wrote before it started; the others wait for that sync (HDFS's logSync does
 * the same outside its namesystem lock).
 */
public final class GroupCommit {
  private final MetadataStore store;
  private long written;
  private long synced;
  private boolean syncing;
  private long syncs;

  public GroupCommit(MetadataStore store) {
    this.store = store;
  }

  /** Call right after a WAL write, while its order relative to other writes is still fixed. */
  public synchronized long ticket() {
    return ++written;
  }

  /** Blocks until the write with {@code ticket} is fsynced. */
  public void awaitDurable(long ticket) throws IOException {
    long target;
    synchronized (this) {
      while (true) {
        if (synced >= ticket) {
          return;
        }
        if (!syncing) {
          syncing = true;
          target = written;
          break;
        }
        try {
          wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new java.io.InterruptedIOException("Interrupted waiting for WAL sync");
        }
      }
    }
    IOException failure = null;
    try {
      store.syncWal();
    } catch (IOException e) {
      failure = e;
    }
    synchronized (this) {
      syncing = false;
      if (failure == null) {
        synced = Math.max(synced, target);
        syncs++;
      }
      notifyAll();
    }
    if (failure != null) {
      throw failure;
    }
  }

  /** Number of fsyncs performed; with concurrent writers it stays below the number of writes. */
  public synchronized long syncCount() {
    return syncs;
  }
}
