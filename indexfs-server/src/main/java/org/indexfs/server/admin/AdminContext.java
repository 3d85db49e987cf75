package org.indexfs.server.admin;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.server.metrics.ServerMetrics;
import org.indexfs.server.op.OpContext;

/**
 * What the operator requests work with: the operations' context, the safe-mode switch, the
 * server's metrics, and the addresses the server learns once it listens.
 */
public final class AdminContext {
  private final OpContext ops;
  private final SafeMode safeMode;
  private final ServerMetrics metrics;
  private volatile String rpcAddress = "";
  private volatile String httpAddress = "";

  public AdminContext(OpContext ops, SafeMode safeMode, ServerMetrics metrics) {
    this.ops = ops;
    this.safeMode = safeMode;
    this.metrics = metrics;
  }

  public OpContext ops() {
    return ops;
  }

  public SafeMode safeMode() {
    return safeMode;
  }

  public ServerMetrics metrics() {
    return metrics;
  }

  /** {@code host:port} of the RPC service and of the status page ("" while off). */
  public void listening(String rpc, String http) {
    this.rpcAddress = rpc;
    this.httpAddress = http == null ? "" : http;
  }

  public String rpcAddress() {
    return rpcAddress;
  }

  public String httpAddress() {
    return httpAddress;
  }

  /** The host name refusals in safe mode carry (HDFS: NamenodeHostName). */
  String host() {
    String a = rpcAddress;
    int colon = a.lastIndexOf(':');
    return colon > 0 ? a.substring(0, colon) : a;
  }

  /**
   * HDFS's rule for administrative calls ({@code FSNamesystem.checkSuperuserPrivilege}): only the
   * superuser or a member of the supergroup, unless permission checking is off; HDFS's message,
   * which names the operation ({@code safemode_enter}, {@code datanodeReport} …).
   */
  void requireSuperuser(Caller caller, String operation) throws IOException {
    if (ops.access().enabled() && !ops.access().isSuperuser(caller)) {
      throw new IndexFsException(Code.ACCESS_DENIED, "Access denied for user " + caller.getUser()
          + ". Superuser privilege is required for operation " + operation);
    }
  }
}
