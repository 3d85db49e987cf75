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
  public static final String DIGEST = "DIGEST-MD5";
  /** The SASL protocol and server name of token exchanges (Hadoop's RPC uses the same pair). */
  public static final String TOKEN_PROTOCOL = "indexfs";
  public static final String TOKEN_SERVER = "default";

  private final String identity;
  private final Login login;
  private final Principals principals;
  private final String qop;
  private final String mechanism;
  private final byte[] tokenIdentifier;
  private final byte[] tokenPassword;

  /**
   * {@code identity}: who this login is (connections of different logins are never shared);
   * {@code qop}: SASL quality of protection, {@code auth} or {@code auth-conf} (privacy).
   */
  public SaslAuthenticator(String identity, Login login, Principals principals, String qop) {
    this.identity = identity;
    this.login = login;
    this.principals = principals;
    this.qop = qop;
    this.mechanism = GSSAPI;
    this.tokenIdentifier = null;
    this.tokenPassword = null;
  }

  private SaslAuthenticator(String identity, String qop, byte[] tokenIdentifier, byte[] tokenPassword) {
    this.identity = identity;
    this.login = new Login() {
      @Override
      public <T> T run(PrivilegedExceptionAction<T> action) throws IOException {
        try {
          return action.run();
        } catch (IOException | RuntimeException e) {
          throw e;
        } catch (Exception e) {
          throw new IOException(e);
        }
      }
    };
    this.principals = null;
    this.qop = qop;
    this.mechanism = DIGEST;
    this.tokenIdentifier = tokenIdentifier;
    this.tokenPassword = tokenPassword;
  }

  /**
   * Authentication with a delegation token (SASL DIGEST-MD5, as Hadoop's RPC does it): the
   * identifier, Base64, is the user name and the token's password, Base64, the secret. No ticket.
   */
  public static SaslAuthenticator forToken(String identity, byte[] identifier, byte[] password, String qop) {
    return new SaslAuthenticator(identity, qop, identifier, password);
  }

  public String mechanism() {
    return mechanism;
  }

  public String identity() {
    return identity;
  }

  /** A SASL client for the server at {@code server}, made as the caller's login. */
  SaslClient client(InetSocketAddress server) throws IOException {
    if (mechanism.equals(DIGEST)) {
      java.util.Base64.Encoder b64 = java.util.Base64.getEncoder();
      String user = b64.encodeToString(tokenIdentifier);
      char[] secret = b64.encodeToString(tokenPassword).toCharArray();
      return Sasl.createSaslClient(new String[] {DIGEST}, null, TOKEN_PROTOCOL, TOKEN_SERVER,
          Map.of(Sasl.QOP, qop), callbacks -> {
            for (javax.security.auth.callback.Callback c : callbacks) {
              if (c instanceof javax.security.auth.callback.NameCallback n) {
                n.setName(user);
              } else if (c instanceof javax.security.auth.callback.PasswordCallback p) {
                p.setPassword(secret);
              } else if (c instanceof javax.security.sasl.RealmCallback r) {
                r.setText(r.getDefaultText());
              }
            }
          });
    }
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
        throw new IOException("Client cannot authenticate via:[" + (mechanism.equals(GSSAPI) ? "KERBEROS" : "TOKEN")
            + "]: " + e.getMessage(), e);
      }
    });
  }
}
