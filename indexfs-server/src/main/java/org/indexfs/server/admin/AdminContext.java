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
  private volatile HighAvailability ha = HighAvailability.NONE;

  /** What a slot tells operators about its HA (DESIGN §11), and the handover it can make. */
  public interface HighAvailability {
    HighAvailability NONE = new HighAvailability() {
      @Override
      public long epoch() {
        return -1;
      }

      @Override
      public java.util.List<String> standbys() {
        return java.util.List.of();
      }

      @Override
      public long journalDurableSeq() {
        return -1;
      }

      @Override
      public void handOver(String to) throws IOException {
        throw new IndexFsException(Code.UNSUPPORTED, "This slot has no journal (indexfs.journal.enabled=false),"
            + " so no standby can take it over");
      }
    };

    long epoch();

    java.util.List<String> standbys() throws IOException;

    long journalDurableSeq();

    /** Stops serving the slot and lets the server named {@code to} (or any standby, "") take it over. */
    void handOver(String to) throws IOException;
  }

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

  public void useHighAvailability(HighAvailability ha) {
    this.ha = ha;
  }

  public HighAvailability ha() {
    return ha;
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
