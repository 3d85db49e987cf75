package org.indexfs.server.op;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import org.indexfs.common.schema.Bytes;
import org.indexfs.common.schema.EntryKey;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.SubtreeStep;
import org.indexfs.server.store.PrefixIterator;
import org.rocksdb.RocksIterator;

/**
 * Depth-first walk of the entries below a directory on this slot (recursive delete checks,
 * content summary, quota counts), with a stack of its own rather than the thread's: a tree of any
 * depth costs memory, never a StackOverflowError (issue 31: a 10,000-deep tree killed handlers).
 * A directory met on the way whose entries live on another slot is visited but not entered: it is
 * handed back as a {@link SubtreeStep} for that slot, and so are this slot's own directories left
 * when the walk's answer would grow past {@code budget} bytes (a peer's answer must fit a frame).
 */
final class SubtreeWalk {
  private SubtreeWalk() {}

  interface Visitor {
    /** Called for each entry below the start; {@code path} is its full path. */
    void visit(String path, Inode inode) throws IOException;
  }

  /** A step that starts at directory {@code dirId}'s first entry on {@code slot}. */
  static SubtreeStep step(long dirId, String path, int slot, boolean entered) {
    return SubtreeStep.newBuilder().setDirId(dirId).setPath(path).setSlot(slot).setEntered(entered).build();
  }

  /**
   * Walks {@code start} here and answers the steps left: directories homed elsewhere, partitions
   * split off to other slots, and past the budget this slot's own directories not walked yet
   * (the one being walked resumes after its last entry visited). At least one entry is visited.
   */
  static List<SubtreeStep> walk(OpContext ctx, SubtreeStep start, Visitor visitor, long budget) throws IOException {
    int here = ctx.ns().slot();
    List<SubtreeStep> more = new ArrayList<>();
    if (!start.getEntered()) {
      splitOff(ctx, start, more);
    }
    Deque<SubtreeStep> todo = new ArrayDeque<>();
    todo.push(start);
    long held = bytes(start) + more.stream().mapToLong(SubtreeWalk::bytes).sum();
    while (!todo.isEmpty()) {
      SubtreeStep dir = todo.pop();
      held -= bytes(dir);
      byte[] prefix = EntryKey.prefix(dir.getDirId());
      String base = dir.getPath().equals("/") ? "" : dir.getPath();
      try (PrefixIterator bounded = ctx.ns().store().prefixIterator(ctx.ns().store().entries(), prefix)) {
        RocksIterator it = bounded.it();
        seek(it, prefix, dir.getAfter());
        for (; it.isValid() && Bytes.startsWith(it.key(), prefix); it.next()) {
          byte[] key = it.key();
          String path = base + "/" + EntryKey.decode(key).name();
          Inode child = Inode.decode(it.value());
          visitor.visit(path, child);
          if (child.isDirectory()) {
            if (child.zerothSlot == here) {
              SubtreeStep below = step(child.inodeId, path, here, true);
              todo.push(below);
              held += bytes(below);
              for (int slot : ctx.partitions().childSlots(child.inodeId, child.zerothSlot)) {
                held += add(more, step(child.inodeId, path, slot, false));
              }
            } else {
              held += add(more, step(child.inodeId, path, child.zerothSlot, false));
            }
          }
          if (held > budget) {
            more.add(dir.toBuilder().setAfter(ByteString.copyFrom(key)).setEntered(true).build());
            more.addAll(todo);
            return more;
          }
        }
      }
    }
    return more;
  }

  /** The partitions of {@code start} split off this slot's (GIGA+): the walk goes on there. */
  private static void splitOff(OpContext ctx, SubtreeStep start, List<SubtreeStep> more) throws IOException {
    Inode record = ctx.ns().partition(start.getDirId());
    if (record != null) {
      for (int slot : ctx.partitions().childSlots(start.getDirId(), record.zerothSlot)) {
        more.add(step(start.getDirId(), start.getPath(), slot, false));
      }
    }
  }

  private static void seek(RocksIterator it, byte[] prefix, ByteString after) {
    if (after.isEmpty()) {
      it.seek(prefix);
      return;
    }
    byte[] from = after.toByteArray();
    it.seek(from);
    if (it.isValid() && Arrays.equals(it.key(), from)) {
      it.next();
    }
  }

  private static long add(List<SubtreeStep> more, SubtreeStep step) {
    more.add(step);
    return bytes(step);
  }

  /** About what a step adds to an answer (its path is most of it). */
  private static long bytes(SubtreeStep step) {
    return 32 + 3L * step.getPath().length() + step.getAfter().size(); // UTF-8: at most 3 bytes a char
  }

  /** True when this slot holds no entry of directory {@code dirId}. */
  static boolean isEmpty(OpContext ctx, long dirId) {
    byte[] prefix = EntryKey.prefix(dirId);
    try (PrefixIterator bounded = ctx.ns().store().prefixIterator(ctx.ns().store().entries(), prefix)) {
      RocksIterator it = bounded.it();
      it.seek(prefix);
      return !(it.isValid() && Bytes.startsWith(it.key(), prefix));
    }
  }
}
