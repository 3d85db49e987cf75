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

  /** The user a completed exchange authenticated: its principal's short name (auth_to_local). */
  public String userOf(SaslServer completed) throws IOException {
    return new HadoopKerberosName(completed.getAuthorizationID()).getShortName();
  }

  /** How this server authenticates to its peers: as itself, to the peer host's principal. */
  public SaslAuthenticator toPeers() {
    return new SaslAuthenticator(principal, this::as, address -> principalFor(principalPattern, address.getAddress()), qop);
  }

  static String principalFor(String pattern, InetAddress address) throws IOException {
    return SecurityUtil.getServerPrincipal(pattern, address);
  }
}
