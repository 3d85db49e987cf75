package org.indexfs.server.metrics;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/** The GIGA+ splits this server made: counts, and the most recent ones for the status page. */
public final class SplitHistory {
  private static final int KEEP = 20;

  /** One finished split: {@code child} of directory {@code dirId} moved from this slot to {@code toSlot}. */
  public record Split(long dirId, int child, long entriesMoved, int fromSlot, int toSlot, long finishedMs,
      long durationMs) {}

  private final Deque<Split> recent = new ArrayDeque<>();
  private final LongAdder done = new LongAdder();
  private final LongAdder moved = new LongAdder();

  public void record(Split split) {
    done.increment();
    moved.add(split.entriesMoved());
    synchronized (recent) {
      recent.addFirst(split);
      if (recent.size() > KEEP) {
        recent.removeLast();
      }
    }
  }

  public long done() {
    return done.sum();
  }

  public long entriesMoved() {
    return moved.sum();
  }

  /** Newest first. */
  public List<Split> recent() {
    synchronized (recent) {
      return new ArrayList<>(recent);
    }
  }
}
