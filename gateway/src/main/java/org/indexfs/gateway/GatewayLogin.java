package org.indexfs.gateway;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.security.PrivilegedExceptionAction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.rpc.SaslAuthenticator;

/**
 * Who the gateway is: with Kerberos, its own principal from its keytab
 * ({@code indexfs.gateway.kerberos.principal}, {@code _HOST} its bind host); otherwise the user
 * running it. Its RPC server accepts clients as that principal; it reaches IndexFS's servers (as
 * {@code indexfs.server.kerberos.principal}) and the data tier as it, acting for its callers.
 */
final class GatewayLogin {
  private GatewayLogin() {}

  static UserGroupInformation of(Configuration conf) throws IOException {
    String principal = Gateway.get(conf, IndexFsConfig.GATEWAY_KERBEROS_PRINCIPAL);
    if (!UserGroupInformation.isSecurityEnabled() || principal.isEmpty()) {
      return UserGroupInformation.getLoginUser();
    }
    String keytab = Gateway.get(conf, IndexFsConfig.GATEWAY_KEYTAB);
    if (keytab.isEmpty()) {
      throw new IOException(IndexFsConfig.GATEWAY_KERBEROS_PRINCIPAL.name() + " is set but "
          + IndexFsConfig.GATEWAY_KEYTAB.name() + " is not");
    }
    String host = Gateway.get(conf, IndexFsConfig.GATEWAY_BIND_HOST);
    return UserGroupInformation.loginUserFromKeytabAndReturnUGI(
        SecurityUtil.getServerPrincipal(principal, "0.0.0.0".equals(host) ? null : host), keytab);
  }

  /** How the gateway's connections to IndexFS's servers authenticate (null without Kerberos). */
  static SaslAuthenticator toServers(Configuration conf, UserGroupInformation login) throws IOException {
    if (!UserGroupInformation.isSecurityEnabled()) {
      return null;
    }
    String pattern = Gateway.get(conf, IndexFsConfig.SERVER_KERBEROS_PRINCIPAL);
    if (pattern.isEmpty()) {
      throw new IOException("Kerberos is on (hadoop.security.authentication=kerberos) but "
          + IndexFsConfig.SERVER_KERBEROS_PRINCIPAL.name() + " is not set");
    }
    String qop = "privacy".equalsIgnoreCase(conf.get("hadoop.rpc.protection", "authentication")) ? "auth-conf" : "auth";
    return new SaslAuthenticator("kerberos:" + login.getUserName() + "#gateway", new SaslAuthenticator.Login() {
      @Override
      public <T> T run(PrivilegedExceptionAction<T> action) throws IOException {
        try {
          return login.doAs(action);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("Interrupted during Kerberos authentication");
        }
      }
    }, address -> SecurityUtil.getServerPrincipal(pattern, address.getAddress()), qop);
  }
}
