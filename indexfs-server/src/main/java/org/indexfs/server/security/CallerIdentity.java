package org.indexfs.server.security;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;

/**
 * Who a call is from, decided by the server (DESIGN §14), once per call in the dispatcher and never
 * in an operation: the user the connection authenticated (with Kerberos) or, in simple mode, the
 * user the request names, as a NameNode with simple authentication believes it; the groups this
 * server's Hadoop group mapping gives that user (whatever the client sent is dropped); and for a
 * proxy call ("alice via oozie") the real user must be allowed to impersonate by
 * {@code hadoop.proxyuser.*}.
 */
public final class CallerIdentity {
  private final ServerGroups groups;
  private final ProxyUserRule proxies;

  private volatile String serverUser;
  private volatile java.util.Set<String> addressProxies = java.util.Set.of();

  public CallerIdentity(ServerGroups groups, ProxyUserRule proxies) {
    this.groups = groups;
    this.proxies = proxies;
  }

  /** With Kerberos: the short name of the servers' principal, the one user peer calls may come from. */
  public void serversAre(String user) {
    this.serverUser = user;
  }

  /**
   * Users ({@code indexfs.security.address-proxy-users}) whose calls may name the client they act
   * for ({@code Caller.client_address}), as a gateway does; anyone else's is dropped.
   */
  public void trustAddressesFrom(String users) {
    java.util.Set<String> set = new java.util.HashSet<>();
    for (String u : users.split(",")) {
      if (!u.isBlank()) {
        set.add(u.trim());
      }
    }
    addressProxies = java.util.Set.copyOf(set);
  }

  /** Where the call comes from: the client a trusted proxy named (admitted by {@link #admit}), else the connection's peer. */
  public static SocketAddress addressOf(Caller admitted, SocketAddress remote) {
    String named = admitted.getClientAddress();
    return named.isEmpty() ? remote
        : new InetSocketAddress(com.google.common.net.InetAddresses.forString(named), 0);
  }

  /**
   * A call only servers make (partition records, cross-slot renames, object references, snapshot
   * barriers): in every mode it must come from a connection that proved to be a server — with
   * Kerberos, authenticated as the servers' principal; in simple mode, by the cluster secret
   * ({@link PeerSecret}). What a request names as its caller proves nothing.
   */
  public void requireServer(Caller caller, ConnectionUser authenticated) throws IndexFsException {
    String server = serverUser;
    boolean proved = authenticated != null && (server == null ? authenticated.peer()
        : !authenticated.byToken() && !authenticated.peer() && server.equals(authenticated.user()));
    if (!proved) {
      throw new IndexFsException(Code.NOT_AUTHORIZED, "User " + caller.getUser() + " is not an IndexFS server");
    }
  }

  /**
   * The caller to run {@code claimed}'s call as. {@code authenticated}: the short name of the user
   * the connection proved to be, or null on a connection without authentication (simple mode).
   */
  public Caller admit(Caller claimed, ConnectionUser connection, SocketAddress remote) throws IndexFsException {
    // A peer server in simple mode names its caller as any simple-mode caller does.
    String authenticated = connection == null || connection.peer() ? null : connection.user();
    String user = claimed.getUser();
    if (user.isEmpty()) {
      throw new IndexFsException(Code.BAD_REQUEST, "Request carries no caller identity");
    }
    Caller.Builder b = claimed.toBuilder().clearGroups();
    String real = claimed.getRealUser();
    if (authenticated != null) {
      // The connection's user is the real user of a proxy call, or the caller itself.
      String expected = real.isEmpty() ? user : shortName(real);
      if (!expected.equals(authenticated)) {
        throw new IndexFsException(Code.NOT_AUTHORIZED, "Connection authenticated as " + authenticated
            + " cannot act as " + (real.isEmpty() ? user : real));
      }
      // A token's owner is who it is; acting for someone else needs the owner's own ticket.
      if (connection.byToken() && !real.isEmpty()) {
        throw new IndexFsException(Code.NOT_AUTHORIZED, "A delegation token of " + authenticated
            + " cannot act for another user");
      }
      String method = connection.byToken() ? "TOKEN" : "KERBEROS";
      if (real.isEmpty()) {
        b.setAuthMethod(method);
      } else {
        b.setRealAuthMethod(method).setAuthMethod("PROXY");
      }
    }
    String proxy = real.isEmpty() ? user : shortName(real);
    if (!claimed.getClientAddress().isEmpty() && (!addressProxies.contains(proxy)
        || !com.google.common.net.InetAddresses.isInetAddress(claimed.getClientAddress()))) {
      b.clearClientAddress(); // as HDFS ignores a clientIp from a proxy it does not trust
    }
    List<String> resolved = groups.groupsOf(user);
    if (!real.isEmpty()) {
      proxies.authorize(shortName(real), real, user, resolved, address(remote));
    }
    return b.addAllGroups(resolved).build();
  }

  /** {@code alice/host@REALM} → {@code alice}: the part Hadoop's auth_to_local rules keep by default. */
  static String shortName(String principal) {
    int cut = principal.length();
    int slash = principal.indexOf('/');
    int at = principal.indexOf('@');
    if (slash >= 0) {
      cut = slash;
    } else if (at >= 0) {
      cut = at;
    }
    return principal.substring(0, cut);
  }

  private static String address(SocketAddress remote) {
    if (remote instanceof InetSocketAddress a && a.getAddress() != null) {
      return a.getAddress().getHostAddress();
    }
    return String.valueOf(remote);
  }
}
