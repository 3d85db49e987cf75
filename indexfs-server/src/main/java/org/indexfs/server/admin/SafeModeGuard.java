package org.indexfs.server.admin;

import java.io.IOException;
import java.util.function.Supplier;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.call.Call;
import org.indexfs.server.call.When;
import org.indexfs.server.op.Operation;

/**
 * Refuses a client mutation while the cluster is in safe mode, with the message HDFS's NameNode
 * gives ({@code FSNamesystem.checkNameNodeSafeMode}): the same opening per operation, then
 * ". Name node is in safe mode." and how to leave it. Which calls: {@code safeModeGuarded} in
 * {@link org.indexfs.server.call.OperationTable}; calls between servers are not guarded, they finish
 * operations that were admitted before safe mode began.
 */
final class SafeModeGuard implements Operation {
  private final Operation op;
  private final When guarded;
  private final SafeMode safeMode;
  private final Supplier<String> host;

  SafeModeGuard(Operation op, When guarded, SafeMode safeMode, Supplier<String> host) {
    this.op = op;
    this.guarded = guarded;
    this.safeMode = safeMode;
    this.host = host;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    return apply(Call.detached(request));
  }

  @Override
  public Response.Builder apply(Call call) throws IOException {
    Request request = call.request();
    if (safeMode.isOn() && guarded.test(request)) {
      throw new IndexFsException(Code.SAFE_MODE, refusal(request) + ". Name node is in safe mode.\n"
          + "It was turned on manually. Use \"indexfs admin -safemode leave\" to turn safe mode off."
          + " NamenodeHostName:" + host.get());
    }
    return op.apply(call);
  }

  /** HDFS's wording per call (FSNamesystem; "Cannot create file" has no space in HDFS either). */
  static String refusal(Request r) {
    return switch (r.getOpCase()) {
      case MKDIRS -> "Cannot create directory " + r.getMkdirs().getPath();
      case CREATE -> "Cannot create file" + r.getCreate().getPath();
      case DELETE -> "Cannot delete " + r.getDelete().getPath();
      case RENAME -> "Cannot rename " + r.getRename().getSrc();
      case SET_PERMISSION -> "Cannot set permission for " + r.getSetPermission().getPath();
      case SET_OWNER -> "Cannot set owner for " + r.getSetOwner().getPath();
      case SET_TIMES -> "Cannot set times " + r.getSetTimes().getPath();
      case SET_REPLICATION -> "Cannot set replication for " + r.getSetReplication().getPath();
      case APPEND -> "Cannot append to file" + r.getAppend().getPath();
      case TRUNCATE -> "Cannot truncate for " + r.getTruncate().getPath();
      case CONCAT -> "Cannot concat " + r.getConcat().getTarget();
      case COMPLETE -> "Cannot complete file " + r.getComplete().getPath();
      case FLUSH -> "Cannot fsync file " + r.getFlush().getPath();
      case RENEW_LEASE -> "Cannot renew lease for " + r.getCaller().getClientId();
      case RECOVER_LEASE -> "Cannot recover the lease of " + r.getRecoverLease().getPath();
      case SET_XATTR -> "Cannot set XAttr on " + r.getSetXattr().getPath();
      case REMOVE_XATTR -> "Cannot remove XAttr entry on " + r.getRemoveXattr().getPath();
      case ACL_EDIT -> switch (r.getAclEdit().getAction()) {
        case MODIFY -> "Cannot modify ACL entries on ";
        case REMOVE_ENTRIES -> "Cannot remove ACL entries on ";
        case REMOVE_DEFAULT -> "Cannot remove default ACL entries on ";
        case REMOVE -> "Cannot remove ACL on ";
        default -> "Cannot set ACL on ";
      } + r.getAclEdit().getPath();
      case SET_QUOTA -> "Cannot set quota on " + r.getSetQuota().getPath();
      case STORAGE_POLICY -> (r.getStoragePolicy().getAction() == org.indexfs.proto.StoragePolicyRequest.Action.UNSET
          ? "Cannot unset storage policy for " : "Cannot set storage policy for ") + r.getStoragePolicy().getPath();
      case SNAPSHOT -> "Cannot " + switch (r.getSnapshot().getAction()) {
        case ALLOW -> "allow";
        case DISALLOW -> "disallow";
        case CREATE -> "create";
        case RENAME -> "rename";
        default -> "delete";
      } + " snapshot for " + r.getSnapshot().getPath();
      case PUBLISH -> "Cannot publish " + r.getPublish().getPath();
      default -> "Cannot " + r.getOpCase();
    };
  }
}
