package org.indexfs.server.security;

import java.io.IOException;
import java.net.InetAddress;
import java.security.PrivilegedExceptionAction;
import java.util.Map;
import javax.security.auth.callback.Callback;
import javax.security.sasl.AuthorizeCallback;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.HadoopKerberosName;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.rpc.SaslAuthenticator;
import org.indexfs.server.security.token.DelegationTokens;
import org.indexfs.server.security.token.ServerTokenIdentifier;

/**
 * Kerberos on a server (DESIGN §14), on when {@code hadoop.security.authentication=kerberos}: the
 * server logs in from its keytab as {@code indexfs.server.kerberos.principal} ({@code _HOST} expanded
 * as Hadoop's SecurityUtil does), accepts SASL GSSAPI on every connection, names the client by its
 * principal's short name under Hadoop's {@code auth_to_local} rules, and calls its peers as itself.
 */
public final class KerberosTransport {
  private final UserGroupInformation login;
  private final String principal;
  private final String principalPattern;
  private final String qop;
  private volatile DelegationTokens tokens;

  private KerberosTransport(UserGroupInformation login, String principal, String principalPattern, String qop) {
    this.login = login;
    this.principal = principal;
    this.principalPattern = principalPattern;
    this.qop = qop;
  }

  /** Null in simple mode; otherwise the server's keytab login. */
  public static KerberosTransport start(Configuration conf, Map<String, String> serverConf, String host)
      throws IOException {
    if (!"kerberos".equalsIgnoreCase(conf.get("hadoop.security.authentication", "simple"))) {
      return null;
    }
    String pattern = IndexFsConfig.SERVER_KERBEROS_PRINCIPAL.get(serverConf);
    String keytab = IndexFsConfig.SERVER_KEYTAB.get(serverConf);
    if (pattern.isEmpty() || keytab.isEmpty()) {
      throw new IOException("hadoop.security.authentication=kerberos needs " + IndexFsConfig.SERVER_KERBEROS_PRINCIPAL.name()
          + " and " + IndexFsConfig.SERVER_KEYTAB.name());
    }
    UserGroupInformation.setConfiguration(conf);
    HadoopKerberosName.setConfiguration(conf);
    String principal = SecurityUtil.getServerPrincipal(pattern, host);
    UserGroupInformation login = UserGroupInformation.loginUserFromKeytabAndReturnUGI(principal, keytab);
    // hadoop.rpc.protection: authentication (default) or privacy (SASL auth-conf: every frame encrypted).
    String qop = "privacy".equalsIgnoreCase(conf.get("hadoop.rpc.protection", "authentication")) ? "auth-conf" : "auth";
    return new KerberosTransport(login, principal, pattern, qop);
  }

  /** The short name of this server's own principal: its superuser and its identity to peers. */
  public String shortName() throws IOException {
    return new HadoopKerberosName(principal).getShortName();
  }

  /** Delegation tokens this server accepts on connections (SASL DIGEST-MD5) and issues. */
  public void useTokens(DelegationTokens tokens) {
    this.tokens = tokens;
  }

  public DelegationTokens tokens() {
    return tokens;
  }

  /** A SASL server for one new connection offering {@code mechanism} (GSSAPI, or DIGEST-MD5 with a token). */
  public SaslServer newServer(String mechanism) throws IOException {
    if (SaslAuthenticator.DIGEST.equals(mechanism) && tokens != null) {
      return tokenServer();
    }
    if (!SaslAuthenticator.GSSAPI.equals(mechanism)) {
      throw new javax.security.sasl.SaslException("Unsupported SASL mechanism \"" + mechanism + "\"");
    }
    return newServer();
  }

  /** DIGEST-MD5 over a delegation token: the identifier names the user, the secret manager knows the password. */
  private SaslServer tokenServer() throws IOException {
    DelegationTokens t = tokens;
    return Sasl.createSaslServer(SaslAuthenticator.DIGEST, SaslAuthenticator.TOKEN_PROTOCOL, SaslAuthenticator.TOKEN_SERVER,
        Map.of(Sasl.QOP, qop), callbacks -> {
          javax.security.auth.callback.NameCallback name = null;
          for (Callback c : callbacks) {
            if (c instanceof javax.security.auth.callback.NameCallback n) {
              name = n;
            }
          }
          for (Callback c : callbacks) {
            if (c instanceof javax.security.auth.callback.PasswordCallback p && name != null) {
              ServerTokenIdentifier id = t.decode(java.util.Base64.getDecoder().decode(name.getDefaultName()));
              p.setPassword(java.util.Base64.getEncoder().encodeToString(t.passwordOf(id)).toCharArray());
            } else if (c instanceof AuthorizeCallback a) {
              a.setAuthorized(a.getAuthenticationID().equals(a.getAuthorizationID()));
              if (a.isAuthorized()) {
                a.setAuthorizedID(a.getAuthorizationID());
              }
            } else if (c instanceof javax.security.sasl.RealmCallback r) {
              r.setText(r.getDefaultText());
            }
          }
        });
  }

  /** A SASL server for one new connection, as this server's login. */
  public SaslServer newServer() throws IOException {
    int slash = principal.indexOf('/');
    int at = principal.indexOf('@');
    String service = principal.substring(0, slash);
    String host = principal.substring(slash + 1, at < 0 ? principal.length() : at);
    return as(() -> Sasl.createSaslServer(SaslAuthenticator.GSSAPI, service, host,
        Map.of(Sasl.QOP, qop, Sasl.SERVER_AUTH, "true"), callbacks -> {
          for (Callback c : callbacks) {
            if (c instanceof AuthorizeCallback a) {
              // A client acts as the principal it authenticated as, never as another (proxying is per call).
              a.setAuthorized(a.getAuthenticationID().equals(a.getAuthorizationID()));
            }
          }
        }));
  }

  /** Runs one step of a connection's exchange as this server (GSSAPI reads the keytab's key then). */
  public <T> T as(PrivilegedExceptionAction<T> action) throws IOException {
    try {
      return login.doAs(action);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("Interrupted during Kerberos authentication");
    }
  }

  /**
   * Who a completed exchange authenticated: a Kerberos principal's short name (auth_to_local), or
   * the owner of the delegation token (short name too).
   */
  public ConnectionUser userOf(SaslServer completed) throws IOException {
    if (SaslAuthenticator.DIGEST.equals(completed.getMechanismName())) {
      ServerTokenIdentifier id = tokens.decode(java.util.Base64.getDecoder().decode(completed.getAuthorizationID()));
      return new ConnectionUser(id.getUser().getShortUserName(), true);
    }
    return new ConnectionUser(new HadoopKerberosName(completed.getAuthorizationID()).getShortName(), false);
  }

  /** How this server authenticates to its peers: as itself, to the peer host's principal. */
  public SaslAuthenticator toPeers() {
    return new SaslAuthenticator(principal, this::as, address -> principalFor(principalPattern, address.getAddress()), qop);
  }

  static String principalFor(String pattern, InetAddress address) throws IOException {
    return SecurityUtil.getServerPrincipal(pattern, address);
  }
}
