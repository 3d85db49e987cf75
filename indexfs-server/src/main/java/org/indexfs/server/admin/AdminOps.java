package org.indexfs.server.admin;

import java.util.Map;
import org.indexfs.proto.Request.OpCase;
import org.indexfs.server.call.OperationTable;
import org.indexfs.server.call.When;
import org.indexfs.server.op.Operation;

/**
 * Adds the operator requests to a server's operations and guards its client mutations with safe
 * mode (those whose {@link OperationTable} row says {@code safeModeGuarded}, as HDFS refuses them).
 * Install it once every operation is in {@code ops}.
 */
public final class AdminOps {
  private AdminOps() {}

  public static void install(Map<OpCase, Operation> ops, AdminContext admin) {
    ops.replaceAll((op, plain) -> {
      When guarded = OperationTable.traits(op).safeModeGuarded();
      return guarded.possible() ? new SafeModeGuard(plain, guarded, admin.safeMode(), admin::host) : plain;
    });
    ops.put(OpCase.SLOT_REPORT, new ReportOp(admin));
    ops.put(OpCase.SAFE_MODE, new SafeModeOp(admin));
    ops.put(OpCase.BALANCE, new BalanceOp(admin));
    ops.put(OpCase.FSCK, new FsckOp(admin));
    ops.put(OpCase.HANDOVER, new HandoverOp(admin));
  }
}
