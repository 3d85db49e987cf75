package org.indexfs.server.health;

import java.io.IOException;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.Request;
import org.indexfs.proto.Request.OpCase;
import org.indexfs.proto.Response;
import org.indexfs.server.op.Operation;

/**
 * Refuses a client call that would grow a slot's store while its disk is below the reserve
 * ({@link DiskSpace}), with NO_SPACE. Deletes (which free space), closing and flushing files being
 * written, and lease renewals and recoveries go on: they are small, and refusing them would strand
 * writers. Keeping the reserve lets RocksDB write those; if the disk fills completely anyway RocksDB
 * refuses everything with NO_SPACE until space is back, and then resumes by itself.
 */
public final class SpaceGuard implements Operation {
  /** The client calls refused while space is low. */
  static final Set<OpCase> GROWING = EnumSet.of(OpCase.MKDIRS, OpCase.CREATE, OpCase.RENAME, OpCase.APPEND,
      OpCase.CONCAT, OpCase.TRUNCATE, OpCase.SET_PERMISSION, OpCase.SET_OWNER, OpCase.SET_TIMES,
      OpCase.SET_REPLICATION);

  private final Operation op;
  private final DiskSpace space;
  private final int slot;

  private SpaceGuard(Operation op, DiskSpace space, int slot) {
    this.op = op;
    this.space = space;
    this.slot = slot;
  }

  /** Wraps every growing call of {@code ops}. */
  public static void install(Map<OpCase, Operation> ops, DiskSpace space, int slot) {
    for (OpCase c : GROWING) {
      Operation plain = ops.get(c);
      if (plain != null) {
        ops.put(c, new SpaceGuard(plain, space, slot));
      }
    }
  }

  @Override
  public boolean mayRunOnIoThread(Request request) {
    return op.mayRunOnIoThread(request);
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    if (space.low()) {
      throw new IndexFsException(Code.NO_SPACE, "Cannot " + what(request) + ": IndexFS slot " + slot
          + " is low on metadata space (" + mb(space.usable()) + " free on " + space.directory() + ", " + mb(space.reserved()) + " reserved by indexfs.store.reserved-bytes)."
          + " Deletes are still accepted; writes resume by themselves once space is freed.");
    }
    return op.apply(request);
  }

  private static String what(Request r) {
    return switch (r.getOpCase()) {
      case MKDIRS -> "create directory " + r.getMkdirs().getPath();
      case CREATE -> "create file " + r.getCreate().getPath();
      case RENAME -> "rename " + r.getRename().getSrc();
      case APPEND -> "append to file " + r.getAppend().getPath();
      case CONCAT -> "concat " + r.getConcat().getTarget();
      case TRUNCATE -> "truncate " + r.getTruncate().getPath();
      case SET_PERMISSION -> "set permission for " + r.getSetPermission().getPath();
      case SET_OWNER -> "set owner for " + r.getSetOwner().getPath();
      case SET_TIMES -> "set times " + r.getSetTimes().getPath();
      case SET_REPLICATION -> "set replication for " + r.getSetReplication().getPath();
      default -> r.getOpCase().toString();
    };
  }

  private static String mb(long bytes) {
    return String.format(java.util.Locale.ROOT, "%.1f MB", bytes / 1048576.0);
  }
}
