package org.indexfs.hadoop;

import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.indexfs.client.ClusterConnection;
import org.indexfs.client.IndexFsClient;
import org.indexfs.common.ConfigKey;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.proto.Caller;

/** Opens the Java client under an {@code indexfs://<cluster>/} FileSystem, as its configuration says. */
final class IndexFsClients {
  private IndexFsClients() {
  }

  /** {@code key}'s value in {@code conf}, or its default. */
  static <T> T get(Configuration conf, ConfigKey<T> key) {
    return key.get(Collections.singletonMap(key.name(), conf.get(key.name())));
  }

  /**
   * The client of {@code cluster} for {@code ugi}: its connection shared with the process's other
   * FileSystems of that cluster unless {@code indexfs.client.private-connection}; Kerberos logins
   * keyed by {@code tokenService}.
   */
  static IndexFsClient open(String cluster, Configuration conf, UserGroupInformation ugi, String tokenService)
      throws IOException {
    String zk = conf.get(String.format(IndexFsConfig.CLUSTER_ZOOKEEPER_PATTERN, cluster),
        get(conf, IndexFsConfig.ZOOKEEPER_QUORUM));
    var login = KerberosLogin.of(ugi, conf, tokenService);
    // A slot map only the servers can have written is believed (issue 31).
    String servers = get(conf, IndexFsConfig.SECURITY_ZOOKEEPER_SERVER_ID);
    ClusterConnection connection = get(conf, IndexFsConfig.CLIENT_PRIVATE_CONNECTION)
        ? ClusterConnection.openUnshared(zk, cluster, get(conf, IndexFsConfig.RPC_MAX_FRAME_BYTES), 30_000,
            get(conf, IndexFsConfig.CLIENT_CACHE_ENTRIES), login, servers)
        : ClusterConnection.acquire(zk, cluster, get(conf, IndexFsConfig.RPC_MAX_FRAME_BYTES), 30_000,
            get(conf, IndexFsConfig.CLIENT_CACHE_ENTRIES), login, get(conf, IndexFsConfig.CLIENT_CONNECTION_LINGER_MS),
            servers);
    connection.listConnections(get(conf, IndexFsConfig.CLIENT_LIST_CONNECTIONS));
    return new IndexFsClient(connection, caller(ugi), get(conf, IndexFsConfig.RPC_TIMEOUT_MS),
        get(conf, IndexFsConfig.CLIENT_FAILOVER_WAIT_MS));
  }

  /** Who calls: user and groups for permission checks, the rest for the servers' audit log. */
  private static Caller caller(UserGroupInformation ugi) throws IOException {
    Caller.Builder b = IndexFsClient.caller(ugi.getShortUserName(), List.of(ugi.getGroupNames()),
        UUID.randomUUID().toString()).toBuilder().setAuthMethod(ugi.getAuthenticationMethod().name());
    UserGroupInformation real = ugi.getRealUser();
    if (real != null) {
      b.setRealUser(real.getUserName()).setRealAuthMethod(real.getAuthenticationMethod().name());
    }
    return b.build();
  }
}
