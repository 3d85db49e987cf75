package org.indexfs.server.ns;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.indexfs.common.schema.Inode;
import org.rocksdb.WriteBatch;

/**
 * One mutation in progress (DESIGN §10): the batch it fills, the directory locks it holds, and the
 * cache updates to publish once the batch is written.
 *
 * <p>Locking is per directory, on a fixed set of lock stripes, always acquired in ascending stripe
 * order so that two mutations can never wait for each other. An operation locks a directory with
 * {@link #lock} after resolving its path and before reading the entries it will change in it. A
 * lock that would break the order is tried without waiting; if it is busy the mutation restarts
 * with every stripe it needs taken in order from the start. An operation that changes the shape of
 * the namespace (a directory's name, place, permissions or existence) calls {@link #exclusive},
 * which restarts it alone, with no other mutation or read running.
 */
public final class Mutation {
  /** Thrown to restart a mutation with more locks (or exclusively); never escapes {@link Namespace}. */
  static final class Restart extends RuntimeException {
    final int[] stripes;
    final boolean exclusive;

    Restart(int[] stripes, boolean exclusive) {
      super(null, null, false, false);
      this.stripes = stripes;
      this.exclusive = exclusive;
    }
  }

  /** A cache entry to publish after the batch is written: (parent, name) → inode, or a partition record. */
  record CacheUpdate(long parentId, String name, Inode inode, boolean partition) {}

  private final WriteBatch batch = new WriteBatch();
  private final ReentrantLock[] stripes;
  private final boolean exclusive;
  private int[] held = new int[4];
  private int count;
  private final List<CacheUpdate> updates = new ArrayList<>(4);
  private List<Runnable> afterWrite;
  /** Subtree durability of what this mutation changes (issue 18): 0 nothing noted, 1 all async, 2 some sync. */
  private int durability;

  Mutation(ReentrantLock[] stripes, boolean exclusive, int[] prelocked) {
    this.stripes = stripes;
    this.exclusive = exclusive;
    if (prelocked != null) {
      int[] sorted = prelocked.clone();
      Arrays.sort(sorted);
      for (int s : sorted) {
        if (count == 0 || held[count - 1] != s) {
          stripes[s].lock();
          add(s);
        }
      }
    }
  }

  public WriteBatch batch() {
    return batch;
  }

  /** True when this mutation runs alone (no locks needed). */
  public boolean isExclusive() {
    return exclusive;
  }

  /** Locks directory {@code dirId} (a no-op when exclusive or already held). */
  public void lock(long dirId) {
    if (exclusive) {
      return;
    }
    int s = Namespace.stripeOf(dirId);
    int at = Arrays.binarySearch(held, 0, count, s);
    if (at >= 0) {
      return;
    }
    if (count == 0 || s > held[count - 1]) {
      stripes[s].lock();
      add(s);
    } else if (stripes[s].tryLock()) {
      add(s);
    } else {
      int[] wanted = Arrays.copyOf(held, count + 1);
      wanted[count] = s;
      throw new Restart(wanted, false);
    }
  }

  /** Restarts this mutation alone in the namespace, unless it already is. */
  public void exclusive() {
    if (!exclusive) {
      throw new Restart(null, true);
    }
  }

  private void add(int s) {
    if (count == held.length) {
      held = Arrays.copyOf(held, count * 2);
    }
    int at = -(Arrays.binarySearch(held, 0, count, s) + 1);
    System.arraycopy(held, at, held, at + 1, count - at);
    held[at] = s;
    count++;
  }

  /**
   * Notes the subtree policy in force where this mutation changes something ({@code p}, walked for
   * the update): one change under a sync subtree (or a path without a policy) makes the whole
   * mutation wait for its fsync; only when every change is under async subtrees may its reply go first.
   * {@code p} null: where the change lies is not known, so it waits.
   */
  public void noteDurability(ResolvedPath p) {
    int depth = p == null ? -1 : p.policyDepth();
    boolean async = depth >= 0 && org.indexfs.common.policy.SubtreePolicy.fromFlags(p.inodeAt(depth).flags)
        .durability() == org.indexfs.common.policy.SubtreePolicy.Durability.ASYNC;
    if (!async) {
      durability = 2;
    } else if (durability == 0) {
      durability = 1;
    }
  }

  /** True when every change of this mutation is under an async subtree (its reply need not wait for the fsync). */
  boolean acknowledgeBeforeSync() {
    return durability == 1;
  }

  void noteEntry(long parentId, String name, Inode inode) {
    updates.add(new CacheUpdate(parentId, name, inode, false));
  }

  void notePartition(long dirId, Inode record) {
    updates.add(new CacheUpdate(dirId, null, record, true));
  }

  List<CacheUpdate> updates() {
    return updates;
  }

  void afterWrite(Runnable action) {
    if (afterWrite == null) {
      afterWrite = new ArrayList<>(2);
    }
    afterWrite.add(action);
  }

  List<Runnable> afterWriteActions() {
    return afterWrite == null ? List.of() : afterWrite;
  }

  /** Releases every directory lock and the batch. */
  void release() {
    for (int i = count - 1; i >= 0; i--) {
      stripes[held[i]].unlock();
    }
    count = 0;
    batch.close();
  }
}
