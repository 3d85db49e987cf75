package org.indexfs.server.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.sasl.AuthorizeCallback;
import javax.security.sasl.RealmCallback;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;
import org.indexfs.common.rpc.SaslAuthenticator;

/**
 * How servers prove to each other in simple mode that they are servers (issue 31): the shared
 * cluster secret — the servers' ZooKeeper digest, which clients never hold — keyed into a SASL
 * DIGEST-MD5 exchange at the start of each peer connection, as Hadoop's RPC authenticates a token.
 * Both sides prove they know it (challenge and response, then the server's {@code rspauth}), nothing
 * secret crosses the wire, and a recorded exchange cannot be replayed. Like simple mode's client
 * calls, the frames after it are not sealed (Kerberos with {@code hadoop.rpc.protection=privacy}
 * encrypts). With Kerberos, peers authenticate as the servers' principal instead ({@link KerberosTransport}).
 */
public final class PeerSecret {
  /** The SASL user name of a peer: one name for every server, since any of them may call any other. */
  static final String PEER = "indexfs-peer";

  /** SASL quality of protection: authentication. */
  private static final String QOP = "auth";

  private final String password;

  private PeerSecret(byte[] key) {
    this.password = Base64.getEncoder().encodeToString(key);
  }

  /**
   * The peer secret of servers sharing the ZooKeeper digest {@code digest}: an HMAC of a fixed label
   * under it, so the digest itself is never what the exchange keys on.
   */
  public static PeerSecret fromDigest(String digest) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(digest.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return new PeerSecret(mac.doFinal("indexfs peer authentication v1".getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** How this server opens connections to its peers ({@code slot}: for its log and connection sharing). */
  public SaslAuthenticator toPeers(int slot) {
    return SaslAuthenticator.forToken("indexfs-peer-of-slot-" + slot, PEER.getBytes(StandardCharsets.UTF_8),
        Base64.getDecoder().decode(password), QOP);
  }

  /** A SASL server for one connection offering {@code mechanism}: DIGEST-MD5 with the peer secret only. */
  public SaslServer newServer(String mechanism) throws IOException {
    if (!SaslAuthenticator.DIGEST.equals(mechanism)) {
      throw new SaslException("Unsupported SASL mechanism \"" + mechanism + "\": in simple mode only servers"
          + " authenticate (DIGEST-MD5)");
    }
    String expected = Base64.getEncoder().encodeToString(PEER.getBytes(StandardCharsets.UTF_8));
    return Sasl.createSaslServer(SaslAuthenticator.DIGEST, SaslAuthenticator.TOKEN_PROTOCOL,
        SaslAuthenticator.TOKEN_SERVER, Map.of(Sasl.QOP, QOP), callbacks -> {
          String name = null;
          for (Callback c : callbacks) {
            if (c instanceof NameCallback n) {
              name = n.getDefaultName();
            }
          }
          for (Callback c : callbacks) {
            if (c instanceof PasswordCallback p) {
              if (!expected.equals(name)) {
                throw new SaslException("Not a peer server");
              }
              // Base64, as SaslAuthenticator sends a token's secret.
              p.setPassword(password.toCharArray());
            } else if (c instanceof AuthorizeCallback a) {
              a.setAuthorized(a.getAuthenticationID().equals(a.getAuthorizationID()));
              if (a.isAuthorized()) {
                a.setAuthorizedID(a.getAuthorizationID());
              }
            } else if (c instanceof RealmCallback r) {
              r.setText(r.getDefaultText());
            }
          }
        });
  }

  /** Who a completed exchange authenticated: a peer server. */
  public ConnectionUser userOf(SaslServer completed) {
    return ConnectionUser.ofPeer();
  }
}
