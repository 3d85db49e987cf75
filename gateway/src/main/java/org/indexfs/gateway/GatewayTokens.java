package org.indexfs.gateway;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.security.token.delegation.ZKDelegationTokenSecretManager;
import org.indexfs.common.ClusterPaths;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.server.security.ServerZooKeeper;

/**
 * The gateways' HDFS delegation tokens (kind {@code HDFS_DELEGATION_TOKEN}), issued and checked by
 * Hadoop's own ZooKeeper-backed secret manager, as HDFS's Router keeps its tokens: signing keys and
 * issued tokens live in IndexFS's ZooKeeper under {@code /indexfs/<cluster>/tokens/gateway}, so every
 * gateway of a nameservice verifies what any of them issued, and a restarted gateway still does.
 * They are written with the servers' ZooKeeper identity ({@link ServerZooKeeper}: SASL as the servers'
 * principal, or their digest), under {@code tokens/}, so nobody but the servers and the gateways can
 * read them: a gateway with Kerberos must be given that identity (the servers' keytab, or
 * {@code indexfs.security.zookeeper.auth=digest} and the digest).
 */
final class GatewayTokens extends ZKDelegationTokenSecretManager<DelegationTokenIdentifier> {
  private final CuratorFramework curator;

  private GatewayTokens(Configuration conf, CuratorFramework curator) {
    super(conf);
    this.curator = curator;
  }

  @Override
  public DelegationTokenIdentifier createIdentifier() {
    return new DelegationTokenIdentifier();
  }

  static GatewayTokens start(Configuration conf, String zookeeper, String cluster) throws IOException {
    Map<String, String> settings = new HashMap<>();
    conf.forEach(e -> settings.put(e.getKey(), e.getValue()));
    ServerZooKeeper servers;
    try {
      servers = ServerZooKeeper.of(settings, conf, Gateway.get(conf, IndexFsConfig.GATEWAY_BIND_HOST));
    } catch (IOException e) {
      throw new IOException("The gateway keeps its delegation tokens in ZooKeeper as the servers do, with their"
          + " ZooKeeper identity: " + e.getMessage(), e);
    }
    CuratorFramework curator = servers.connect(zookeeper, 30_000);
    Configuration c = new Configuration(conf);
    c.set(ZK_DTSM_ZNODE_WORKING_PATH, ClusterPaths.root(cluster).substring(1) + "/tokens/gateway");
    c.setLong("delegation-token.max-lifetime.sec", Gateway.get(conf, IndexFsConfig.GATEWAY_TOKEN_MAX_LIFETIME_MS) / 1000);
    c.setLong("delegation-token.renew-interval.sec", Gateway.get(conf, IndexFsConfig.GATEWAY_TOKEN_RENEW_INTERVAL_MS) / 1000);
    c.setLong("delegation-token.update-interval.sec",
        Gateway.get(conf, IndexFsConfig.GATEWAY_TOKEN_KEY_UPDATE_INTERVAL_MS) / 1000);
    GatewayTokens tokens;
    try {
      ZKDelegationTokenSecretManager.setCurator(curator); // this thread's next manager uses it
      tokens = new GatewayTokens(c, curator);
    } finally {
      ZKDelegationTokenSecretManager.setCurator(null);
    }
    try {
      tokens.startThreads();
    } catch (IOException | RuntimeException e) {
      curator.close();
      throw e;
    }
    return tokens;
  }

  void close() {
    stopThreads();
    curator.close();
  }
}
