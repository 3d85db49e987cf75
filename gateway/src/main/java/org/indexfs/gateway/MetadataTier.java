package org.indexfs.gateway;

import java.io.IOException;
import java.util.HexFormat;
import java.util.List;
import org.apache.hadoop.security.UserGroupInformation;
import org.indexfs.client.ClusterConnection;
import org.indexfs.client.IndexFsClient;
import org.indexfs.common.rpc.SaslAuthenticator;
import org.indexfs.proto.Caller;
import org.indexfs.proto.ServerInfo;

/**
 * The gateway's link to IndexFS's servers: one connection (authenticated as the gateway's own
 * identity) for every end user, and for each call an {@link IndexFsClient} acting as that call's
 * user — a proxy user of the gateway, so the servers check {@code hadoop.proxyuser.<gateway>.*} and
 * their own permissions for the end user (DESIGN §14), and audit the end user. Nothing here
 * outlives a restart but the connection.
 */
final class MetadataTier implements AutoCloseable {
  private final ClusterConnection connection;
  private final UserGroupInformation gateway;
  private final long timeoutMs;
  private final long failoverWaitMs;
  private final ServerInfo info;

  MetadataTier(ClusterConnection connection, UserGroupInformation gateway, long timeoutMs, long failoverWaitMs)
      throws IOException {
    this.connection = connection;
    this.gateway = gateway;
    this.timeoutMs = timeoutMs;
    this.failoverWaitMs = failoverWaitMs;
    Caller self = IndexFsClient.caller(gateway.getShortUserName(), List.of(), "indexfs-gateway");
    try {
      this.info = connection.serverInfo(new IndexFsClient(connection, self, timeoutMs, failoverWaitMs)::serverInfo);
    } catch (IOException e) {
      connection.close();
      throw e;
    }
  }

  static MetadataTier open(String zookeeper, String cluster, int maxFrameBytes, int cacheEntries, int listConnections,
      UserGroupInformation gateway, SaslAuthenticator login, String serversId, long timeoutMs, long failoverWaitMs)
      throws IOException {
    // serversId: slot records only the servers' ZooKeeper identity wrote are believed, as by any client.
    ClusterConnection c = ClusterConnection.openUnshared(zookeeper, cluster, maxFrameBytes, 30_000, cacheEntries, login,
        serversId);
    c.listConnections(listConnections);
    return new MetadataTier(c, gateway, timeoutMs, failoverWaitMs);
  }

  /** The cluster's settings: its data root, inline limit, lease period and server defaults. */
  ServerInfo info() {
    return info;
  }

  int slotCount() throws IOException {
    return connection.slotCount();
  }

  /**
   * A client for one call of {@code call}'s user; {@code holder} (the HDFS client name, which is
   * the lease holder of the files it writes) or, when null, the client's RPC id names the writer.
   * Its calls carry the call's retry-cache names, and must not be closed (that closes the
   * connection every call shares).
   */
  IndexFsClient as(RpcCall call, String holder) {
    String clientId = holder != null ? holder
        : call.clientId().length > 0 ? "rpc-" + HexFormat.of().formatHex(call.clientId()) : "indexfs-gateway";
    // The client's address, for the servers' audit log and messages (if they trust the gateway's user).
    Caller.Builder b = Caller.newBuilder().setUser(call.userName()).setClientId(clientId).setClientAddress(call.ip());
    if (call.userName().equals(gateway.getShortUserName())) {
      b.setAuthMethod(call.user().getAuthenticationMethod().name());
    } else {
      // Hadoop's RPC server has checked the caller; IndexFS checks the gateway may act for it.
      b.setAuthMethod(UserGroupInformation.AuthenticationMethod.PROXY.name())
          .setRealUser(gateway.getUserName()).setRealAuthMethod(gateway.getAuthenticationMethod().name());
    }
    IndexFsClient client = new IndexFsClient(connection, b.build(), timeoutMs, failoverWaitMs);
    java.util.function.ToLongFunction<org.indexfs.proto.Request.OpCase> ids = call.indexFsCallIds();
    return ids == null ? client : client.namingCalls(call.retryClientId(), ids);
  }

  @Override
  public void close() {
    connection.close();
  }
}
