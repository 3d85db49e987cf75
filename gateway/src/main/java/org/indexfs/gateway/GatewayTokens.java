package org.indexfs.gateway;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.security.token.delegation.ZKDelegationTokenSecretManager;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.server.security.ResolutionKeys;

/**
 * The gateways' HDFS delegation tokens (kind {@code HDFS_DELEGATION_TOKEN}), issued and checked by
 * Hadoop's own ZooKeeper-backed secret manager, as HDFS's Router keeps its tokens: signing keys and
 * issued tokens live in IndexFS's ZooKeeper under {@code indexfs/<cluster>/gateway-tokens}, so every
 * gateway of a nameservice verifies what any of them issued, and a restarted gateway still does.
 * The nodes are readable only with the servers' digest ({@code indexfs.security.zookeeper.digest}).
 */
final class GatewayTokens extends ZKDelegationTokenSecretManager<DelegationTokenIdentifier> {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(GatewayTokens.class);
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
    String digest = Gateway.get(conf, IndexFsConfig.SECURITY_ZOOKEEPER_DIGEST);
    if (digest.isEmpty()) {
      LOG.warn("{} is not set: the gateways' delegation token secrets in ZooKeeper are readable by anyone who can"
          + " reach ZooKeeper, who could then make tokens for any user", IndexFsConfig.SECURITY_ZOOKEEPER_DIGEST.name());
    }
    CuratorFrameworkFactory.Builder b = CuratorFrameworkFactory.builder().connectString(zookeeper)
        .ensembleTracker(false).sessionTimeoutMs(30_000).connectionTimeoutMs(15_000)
        .retryPolicy(new BoundedExponentialBackoffRetry(100, 2_000, 5))
        .aclProvider(new org.apache.curator.framework.api.ACLProvider() {
          @Override
          public java.util.List<org.apache.zookeeper.data.ACL> getDefaultAcl() {
            return ResolutionKeys.serversOnly(digest);
          }

          @Override
          public java.util.List<org.apache.zookeeper.data.ACL> getAclForPath(String path) {
            return getDefaultAcl();
          }
        });
    if (!digest.isEmpty()) {
      b.authorization("digest", digest.getBytes(StandardCharsets.UTF_8));
    }
    CuratorFramework curator = b.build();
    curator.start();
    Configuration c = new Configuration(conf);
    c.set(ZK_DTSM_ZNODE_WORKING_PATH, "indexfs/" + cluster + "/gateway-tokens");
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
