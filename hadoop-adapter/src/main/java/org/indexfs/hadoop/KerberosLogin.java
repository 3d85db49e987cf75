package org.indexfs.hadoop;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.security.token.TokenIdentifier;
import org.indexfs.hadoop.token.IndexFsTokenIdentifier;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.rpc.SaslAuthenticator;

/**
 * A Hadoop client's Kerberos identity for IndexFS connections (DESIGN §14): with
 * {@code hadoop.security.authentication=kerberos} the connection authenticates as the caller's
 * login (for a proxy user, as the real user, who must be allowed to impersonate) — or with the
 * cluster's delegation token when the caller's credentials hold one — to the server
 * principal {@code indexfs.server.kerberos.principal} with {@code _HOST} expanded for the address
 * called, as Hadoop's RPC client does. Null in simple mode.
 */
final class KerberosLogin {
  private KerberosLogin() {}

  /**
   * Which credentials these are, as Hadoop's RPC client keys its connections (a UGI equals another
   * only with the same Subject): a connection one UGI authenticated — open or lingering — is never
   * handed to another UGI that merely has the same user name or a copy of a since-cancelled token.
   * Every doAs of the login user (and every proxy user it impersonates for) shares one.
   */
  private static final Map<UserGroupInformation, Long> HOLDERS = Collections.synchronizedMap(new WeakHashMap<>());
  private static final AtomicLong NEXT_HOLDER = new AtomicLong();

  private static String holder(UserGroupInformation ugi) {
    return "#" + HOLDERS.computeIfAbsent(ugi, u -> NEXT_HOLDER.incrementAndGet());
  }

  static SaslAuthenticator of(UserGroupInformation ugi, Configuration conf, String tokenService) throws IOException {
    String qop = "privacy".equalsIgnoreCase(conf.get("hadoop.rpc.protection", "authentication")) ? "auth-conf" : "auth";
    // A process with this cluster's delegation token (a MapReduce task, a YARN container) uses it, as
    // Hadoop's RPC client prefers a token to a ticket. Only Kerberos clusters issue tokens, so holding
    // one says the cluster wants it, whatever this process's own hadoop.security.authentication says.
    for (Token<? extends TokenIdentifier> t : ugi.getTokens()) {
      if (IndexFsTokenIdentifier.KIND.equals(t.getKind()) && tokenService.equals(t.getService().toString())) {
        return SaslAuthenticator.forToken("token:" + ugi.getUserName() + ":" + t.getService() + ":"
            + java.util.Arrays.hashCode(t.getIdentifier()) + holder(ugi), t.getIdentifier(), t.getPassword(), qop);
      }
    }
    if (!UserGroupInformation.isSecurityEnabled()) {
      return null;
    }
    String pattern = conf.get(IndexFsConfig.SERVER_KERBEROS_PRINCIPAL.name(), "");
    if (pattern.isEmpty()) {
      throw new IOException("Kerberos is on (hadoop.security.authentication=kerberos) but "
          + IndexFsConfig.SERVER_KERBEROS_PRINCIPAL.name() + " is not set");
    }
    UserGroupInformation login = ugi.getRealUser() != null ? ugi.getRealUser() : ugi;
    return new SaslAuthenticator("kerberos:" + login.getUserName() + holder(login), new SaslAuthenticator.Login() {
      @Override
      public <T> T run(java.security.PrivilegedExceptionAction<T> action) throws IOException {
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
