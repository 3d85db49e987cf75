package org.indexfs.common.rpc;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.PrivilegedExceptionAction;
import java.util.Map;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslClient;
import javax.security.sasl.SaslException;

/**
 * How a connection proves who opens it (DESIGN §14): SASL GSSAPI (Kerberos) under the caller's
 * login, so the server takes its identity from the connection, never from the requests. The caller's
 * login is whatever {@link Login} runs code as (Hadoop's {@code UserGroupInformation.doAs}, in the
 * adapter and the server); the server's principal for an address ({@code indexfs/_HOST@REALM}
 * expanded as Hadoop's SecurityUtil does) comes from {@link Principals}.
 */
public final class SaslAuthenticator {
  /** Runs code as the caller's Kerberos login. */
  @FunctionalInterface
  public interface Login {
    <T> T run(PrivilegedExceptionAction<T> action) throws IOException;
  }

  /** The server principal ({@code service/host@REALM}) to expect at an address. */
  @FunctionalInterface
  public interface Principals {
    String of(InetSocketAddress server) throws IOException;
  }

  public static final String GSSAPI = "GSSAPI";

  private final String identity;
  private final Login login;
  private final Principals principals;
  private final String qop;

  /**
   * {@code identity}: who this login is (connections of different logins are never shared);
   * {@code qop}: SASL quality of protection, {@code auth} or {@code auth-conf} (privacy).
   */
  public SaslAuthenticator(String identity, Login login, Principals principals, String qop) {
    this.identity = identity;
    this.login = login;
    this.principals = principals;
    this.qop = qop;
  }

  public String identity() {
    return identity;
  }

  /** A SASL client for the server at {@code server}, made as the caller's login. */
  SaslClient client(InetSocketAddress server) throws IOException {
    String principal = principals.of(server);
    int slash = principal.indexOf('/');
    int at = principal.indexOf('@');
    if (slash <= 0) {
      throw new IOException("Server principal " + principal + " is not of the form service/host@REALM");
    }
    String service = principal.substring(0, slash);
    String host = principal.substring(slash + 1, at < 0 ? principal.length() : at);
    return login.run(() -> Sasl.createSaslClient(new String[] {GSSAPI}, null, service, host,
        Map.of(Sasl.QOP, qop, Sasl.SERVER_AUTH, "true"), null));
  }

  /** One step of the exchange, as the caller's login (GSSAPI reads its Kerberos ticket then). */
  byte[] evaluate(SaslClient client, byte[] challenge) throws IOException {
    return login.run(() -> {
      try {
        return client.evaluateChallenge(challenge);
      } catch (SaslException e) {
        throw new IOException("Client cannot authenticate via:[KERBEROS]: " + e.getMessage(), e);
      }
    });
  }
}
