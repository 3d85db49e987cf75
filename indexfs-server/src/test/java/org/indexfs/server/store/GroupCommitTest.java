package org.indexfs.server.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.WriteBatch;

/**
 * Group commit on a real RocksDB WAL (DESIGN §10): the writes an I/O thread makes while it runs
 * one read's calls share one fsync, started when the read is done — not one for the first call
 * and another for the rest — and a write made outside a read is synced without one.
 */
class GroupCommitTest {
  @TempDir
  Path dir;

  private static long write(MetadataStore store, GroupCommit commit, String key) throws Exception {
    try (WriteBatch b = new WriteBatch()) {
      b.put(store.meta(), ("k-" + key).getBytes(StandardCharsets.UTF_8), new byte[] {1});
      store.write(b);
    }
    return commit.ticket();
  }

  @Test
  void theWritesOfOneReadShareOneFsyncStartedWhenTheReadEnds() throws Exception {
    try (MetadataStore store = MetadataStore.open(dir.resolve("db"));
         GroupCommit commit = new GroupCommit(store, true, 0)) {
      AtomicInteger durable = new AtomicInteger();
      // The syncer thread just started: until it first parks, a queued write would find it awake
      // (CI hit this under load), and an awake syncer waits only briefly for open reads.
      long asleepBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (!commit.syncerAsleep()) {
        assertTrue(System.nanoTime() < asleepBy, "the syncer parks when it has nothing to do");
        Thread.sleep(1);
      }
      long syncsBefore = commit.syncCount();
      GroupCommit.Read read = new GroupCommit.Read();
      commit.readStarted(read);
      for (int i = 0; i < 8; i++) {
        commit.whenDurable(write(store, commit, "a" + i), read, failure -> {
          if (failure == null) {
            durable.incrementAndGet();
          }
        });
        Thread.sleep(20); // calls that take a while: an eager syncer would have started long ago
      }
      assertEquals(0, durable.get(), "no write of an unfinished read is acknowledged");
      assertEquals(syncsBefore, commit.syncCount(), "the syncer waits for the read's end");
      commit.readComplete(read);
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (durable.get() < 8 && System.nanoTime() < until) {
        Thread.sleep(1);
      }
      assertEquals(8, durable.get());
      assertEquals(syncsBefore + 1, commit.syncCount(), "one fsync carries every write of the read");
    }
  }

  @Test
  void aWriteOutsideAnyReadIsSyncedAtOnce() throws Exception {
    try (MetadataStore store = MetadataStore.open(dir.resolve("db"));
         GroupCommit commit = new GroupCommit(store, true, 0)) {
      CountDownLatch done = new CountDownLatch(1);
      commit.whenDurable(write(store, commit, "b"), failure -> done.countDown());
      assertTrue(done.await(10, TimeUnit.SECONDS), "a handler thread's write needs no read to end");
      // An I/O thread whose read wrote nothing leaves the syncer asleep, and the next write still gets its sync.
      GroupCommit.Read read = new GroupCommit.Read();
      commit.readStarted(read);
      commit.readComplete(read);
      CountDownLatch next = new CountDownLatch(1);
      commit.whenDurable(write(store, commit, "c"), failure -> next.countDown());
      assertTrue(next.await(10, TimeUnit.SECONDS));
    }
  }

  @Test
  void anotherThreadsOpenReadHoldsTheFsyncOnlyBriefly() throws Exception {
    try (MetadataStore store = MetadataStore.open(dir.resolve("db"));
         GroupCommit commit = new GroupCommit(store, true, 0)) {
      CountDownLatch opened = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      Thread other = new Thread(() -> {
        GroupCommit.Read theirs = new GroupCommit.Read();
        commit.readStarted(theirs);
        opened.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        commit.readComplete(theirs);
      });
      other.start();
      try {
        assertTrue(opened.await(10, TimeUnit.SECONDS));
        // A read that never ends on one I/O thread must not hold back another's acknowledgements.
        CountDownLatch done = new CountDownLatch(1);
        GroupCommit.Read read = new GroupCommit.Read();
        commit.readStarted(read);
        commit.whenDurable(write(store, commit, "d"), read, failure -> done.countDown());
        commit.readComplete(read);
        assertTrue(done.await(10, TimeUnit.SECONDS), "acknowledged after the bounded wait");
      } finally {
        release.countDown();
        other.join(10_000);
      }
    }
  }
}
