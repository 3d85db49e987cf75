package org.indexfs.server.quota;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import java.util.Map;
import org.indexfs.proto.Request.OpCase;
import org.indexfs.server.Blocking;
import org.indexfs.server.call.Call;
import org.indexfs.server.call.OperationTable;
import org.indexfs.server.op.Operation;

/**
 * Runs an operation that may count against quotas: when it stops because this slot's share of a
 * quota ran out ({@link NeedQuota}; nothing was written), the share is renewed at the directory's
 * home and the operation runs again; a refusal there is the operation's answer.
 */
public final class QuotaRetry implements Operation {
  private static final int MAX_RENEWALS = 32;

  private final Operation op;
  private final QuotaShares shares;

  private QuotaRetry(Operation op, QuotaShares shares) {
    this.op = op;
    this.shares = shares;
  }

  /** Wraps every operation of {@code ops} that may ask for a quota share ({@link OperationTable}). */
  public static void install(Map<OpCase, Operation> ops, QuotaShares shares) {
    ops.replaceAll((c, plain) -> OperationTable.traits(c).quotaRetried().possible() ? new QuotaRetry(plain, shares) : plain);
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    return apply(Call.detached(request));
  }

  @Override
  public Response.Builder apply(Call call) throws IOException {
    Request request = call.request();
    for (int renewal = 0; ; renewal++) {
      try {
        return op.apply(call);
      } catch (NeedQuota need) {
        if (renewal >= MAX_RENEWALS) {
          throw new IndexFsException(Code.SERVER_BUSY, "The quota of " + need.root.path()
              + " kept running out under concurrent changes; retry");
        }
        Blocking.check("renewing a quota share at the directory's home");
        shares.obtain(need);
      }
    }
  }
}
