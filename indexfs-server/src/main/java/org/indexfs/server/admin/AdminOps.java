package org.indexfs.server.admin;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.indexfs.proto.Request.OpCase;
import org.indexfs.server.op.Operation;

/** Adds the operator requests to a server's operations and guards its client mutations with safe mode. */
public final class AdminOps {
  /** Client calls that change the namespace or a file: refused in safe mode, as HDFS refuses them. */
  static final Set<OpCase> MUTATIONS = EnumSet.of(OpCase.MKDIRS, OpCase.CREATE, OpCase.DELETE, OpCase.RENAME,
      OpCase.SET_PERMISSION, OpCase.SET_OWNER, OpCase.SET_TIMES, OpCase.SET_REPLICATION, OpCase.APPEND,
      OpCase.TRUNCATE, OpCase.CONCAT, OpCase.COMPLETE, OpCase.FLUSH, OpCase.RENEW_LEASE, OpCase.RECOVER_LEASE,
      OpCase.SET_XATTR, OpCase.REMOVE_XATTR, OpCase.ACL_EDIT, OpCase.SET_QUOTA,
      OpCase.SET_POLICY, OpCase.STORAGE_POLICY);

  private AdminOps() {}

  public static void install(Map<OpCase, Operation> ops, AdminContext admin) {
    for (OpCase op : MUTATIONS) {
      Operation plain = ops.get(op);
      if (plain != null) {
        ops.put(op, new SafeModeGuard(plain, admin.safeMode(), admin::host));
      }
    }
    ops.put(OpCase.SLOT_REPORT, new ReportOp(admin));
    ops.put(OpCase.SAFE_MODE, new SafeModeOp(admin));
    ops.put(OpCase.BALANCE, new BalanceOp(admin));
    ops.put(OpCase.FSCK, new FsckOp(admin));
    ops.put(OpCase.HANDOVER, new HandoverOp(admin));
  }
}
