package org.indexfs.client.bulk;

import java.util.ArrayDeque;
import java.util.Deque;
import org.indexfs.proto.IdBlock;

/** The inode ids the server reserved for this holder, handed out in order (one create, one id). */
final class IdBlocks {
  private final Deque<long[]> blocks = new ArrayDeque<>();
  private long next;
  private long end;
  private long granted;

  void add(IdBlock block) {
    blocks.add(new long[] {block.getFirst(), block.getCount()});
    granted += block.getCount();
  }

  /** The next id, or -1 when every reserved id is used. */
  long next() {
    if (next == end) {
      long[] b = blocks.poll();
      if (b == null) {
        return -1;
      }
      next = b[0];
      end = b[0] + b[1];
    }
    return next++;
  }

  /** How many ids are left. */
  long remaining() {
    long n = end - next;
    for (long[] b : blocks) {
      n += b[1];
    }
    return n;
  }

  long granted() {
    return granted;
  }
}
