package org.indexfs.server.security.token;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.token.SecretManager;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.security.token.delegation.ZKDelegationTokenSecretManager;
import org.indexfs.common.ClusterPaths;

/**
 * Delegation tokens any server can issue and check (DESIGN §14): Hadoop's
 * {@link ZKDelegationTokenSecretManager} — master keys and issued tokens live in ZooKeeper under
 * {@code /indexfs/<cluster>/tokens}, shared by every server, so a token from one server works on all
 * of them and after it restarts. It runs on the server's own ZooKeeper session (Hadoop's external
 * client), authenticated as the servers, so every node it writes is readable and writable by the
 * servers alone ({@link org.indexfs.server.security.ServerZooKeeper}): its {@code zk-dt-secret-manager.*}
 * connection and ACL keys are not used. Lifetimes are Hadoop's keys: {@code delegation-token.renew-interval.sec},
 * {@code delegation-token.max-lifetime.sec}, {@code delegation-token.update-interval.sec}.
 */
public final class DelegationTokens extends ZKDelegationTokenSecretManager<ServerTokenIdentifier> implements AutoCloseable {
  private DelegationTokens(Configuration conf) {
    super(conf);
  }

  /**
   * Starts on {@code curator}, a session authenticated as the servers whose ACL provider keeps
   * {@code tokens/} theirs alone; the session stays its owner's.
   */
  public static DelegationTokens start(Configuration hadoop, CuratorFramework curator, String cluster) throws IOException {
    Configuration conf = new Configuration(hadoop);
    conf.set(ZK_DTSM_ZNODE_WORKING_PATH, ClusterPaths.root(cluster).substring(1) + "/tokens");
    DelegationTokens tokens;
    setCurator(curator);
    try {
      tokens = new DelegationTokens(conf);
    } finally {
      setCurator(null);
    }
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
