package org.indexfs.server.health;

import java.io.IOException;
import java.util.Map;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.Request;
import org.indexfs.proto.Request.OpCase;
import org.indexfs.proto.Response;
import org.indexfs.server.call.Call;
import org.indexfs.server.call.OperationTable;
import org.indexfs.server.call.When;
import org.indexfs.server.op.Operation;

/**
 * Refuses a client call that would grow a slot's store while its disk is below the reserve
 * ({@link DiskSpace}), with NO_SPACE. Deletes (which free space), closing and flushing files being
 * written, and lease renewals and recoveries go on: they are small, and refusing them would strand
 * writers ({@link OperationTable}'s {@code grows}). Keeping the reserve lets RocksDB write those; if the disk fills completely anyway RocksDB
 * refuses everything with NO_SPACE until space is back, and then resumes by itself.
 */
public final class SpaceGuard implements Operation {
  private final Operation op;
  private final When grows;
  private final DiskSpace space;
  private final int slot;

  private SpaceGuard(Operation op, When grows, DiskSpace space, int slot) {
    this.op = op;
    this.grows = grows;
    this.space = space;
    this.slot = slot;
  }

  /** Wraps every call of {@code ops} that may grow the store. */
  public static void install(Map<OpCase, Operation> ops, DiskSpace space, int slot) {
    ops.replaceAll((c, plain) -> {
      When grows = OperationTable.traits(c).grows();
      return grows.possible() ? new SpaceGuard(plain, grows, space, slot) : plain;
    });
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    return apply(Call.detached(request));
  }

  @Override
  public Response.Builder apply(Call call) throws IOException {
    Request request = call.request();
    if (space.low() && grows.test(request)) {
      throw new IndexFsException(Code.NO_SPACE, "Cannot " + what(request) + ": IndexFS slot " + slot
          + " is low on metadata space (" + mb(space.usable()) + " free on " + space.directory() + ", " + mb(space.reserved()) + " reserved by indexfs.store.reserved-bytes)."
          + " Deletes are still accepted; writes resume by themselves once space is freed.");
    }
    return op.apply(call);
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
      case SET_XATTR -> "set XAttr on " + r.getSetXattr().getPath();
      case ACL_EDIT -> (r.getAclEdit().getAction() == org.indexfs.proto.AclEditRequest.Action.SET ? "set ACL on "
          : "modify ACL entries on ") + r.getAclEdit().getPath();
      case SET_QUOTA -> "set quota on " + r.getSetQuota().getPath();
      case SET_POLICY -> "set policy on " + r.getSetPolicy().getPath();
      case STORAGE_POLICY -> (r.getStoragePolicy().getAction() == org.indexfs.proto.StoragePolicyRequest.Action.UNSET
          ? "unset storage policy for " : "set storage policy for ") + r.getStoragePolicy().getPath();
      case PUBLISH -> "publish " + r.getPublish().getPath();
      case SNAPSHOT -> r.getSnapshot().getAction().name().toLowerCase(java.util.Locale.ROOT) + " snapshot for "
          + r.getSnapshot().getPath();
      default -> r.getOpCase().toString();
    };
  }

  private static String mb(long bytes) {
    return String.format(java.util.Locale.ROOT, "%.1f MB", bytes / 1048576.0);
  }
}
