package org.indexfs.server.security.token;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.token.SecretManager;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.security.token.delegation.ZKDelegationTokenSecretManager;
import org.indexfs.common.ClusterPaths;

/**
 * Delegation tokens any server can issue and check (DESIGN §14): Hadoop's
 * {@link ZKDelegationTokenSecretManager} — master keys and issued tokens live in ZooKeeper under
 * {@code /indexfs/<cluster>/tokens}, shared by every server, so a token from one server works on all
 * of them and after it restarts. Its ZooKeeper session and ACLs are Hadoop's keys:
 * {@code zk-dt-secret-manager.zkAuthType=sasl} (with {@code zk-dt-secret-manager.kerberos.keytab}
 * and {@code .principal}) on a Kerberized ZooKeeper makes the secrets readable by the servers only;
 * {@code none} (the default here) leaves them readable by anyone who reaches ZooKeeper, and the
 * server says so at start. Lifetimes are Hadoop's keys too: {@code delegation-token.renew-interval.sec},
 * {@code delegation-token.max-lifetime.sec}, {@code delegation-token.update-interval.sec}.
 */
public final class DelegationTokens extends ZKDelegationTokenSecretManager<ServerTokenIdentifier> implements AutoCloseable {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DelegationTokens.class);

  private DelegationTokens(Configuration conf) {
    super(conf);
  }

  public static DelegationTokens start(Configuration hadoop, String zkQuorum, String cluster) throws IOException {
    Configuration conf = new Configuration(hadoop);
    conf.set(ZK_DTSM_ZK_CONNECTION_STRING, zkQuorum);
    conf.set(ZK_DTSM_ZNODE_WORKING_PATH, ClusterPaths.root(cluster).substring(1) + "/tokens");
    if (conf.get(ZK_DTSM_ZK_AUTH_TYPE) == null) {
      conf.set(ZK_DTSM_ZK_AUTH_TYPE, "none");
    }
    if ("none".equals(conf.get(ZK_DTSM_ZK_AUTH_TYPE))) {
      LOG.warn("zk-dt-secret-manager.zkAuthType=none: delegation token secrets in ZooKeeper are readable by anyone"
          + " who can reach ZooKeeper; use sasl on a Kerberized ZooKeeper");
    }
    DelegationTokens tokens = new DelegationTokens(conf);
    tokens.startThreads();
    return tokens;
  }

  @Override
  public ServerTokenIdentifier createIdentifier() {
    return new ServerTokenIdentifier();
  }

  /** Decodes a token's identifier bytes. */
  public ServerTokenIdentifier decode(byte[] identifier) throws IOException {
    ServerTokenIdentifier id = new ServerTokenIdentifier();
    id.readFields(new DataInputStream(new ByteArrayInputStream(identifier)));
    return id;
  }

  /** The password of a live token (the DIGEST-MD5 secret), or InvalidToken. */
  public byte[] passwordOf(ServerTokenIdentifier id) throws SecretManager.InvalidToken {
    return retrievePassword(id);
  }

  public static Token<ServerTokenIdentifier> token(byte[] identifier, byte[] password) {
    return new Token<>(identifier, password, ServerTokenIdentifier.KIND, new org.apache.hadoop.io.Text());
  }

  @Override
  public void close() {
    stopThreads();
  }
}
