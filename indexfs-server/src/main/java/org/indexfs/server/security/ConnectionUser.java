package org.indexfs.server.security;

/**
 * Who a connection proved to be (DESIGN §14): the short name of its Kerberos principal, or of the
 * owner of the delegation token it presented ({@code byToken}); or, in simple mode, a peer server
 * that proved it holds the cluster secret ({@code peer}, {@link PeerSecret}). Other connections
 * without authentication (simple mode) have none.
 */
public record ConnectionUser(String user, boolean byToken, boolean peer) {
  public ConnectionUser(String user, boolean byToken) {
    this(user, byToken, false);
  }

  /** A peer server in simple mode: it acts for whoever its calls name, as simple mode believes any caller. */
  public static ConnectionUser ofPeer() {
    return new ConnectionUser("", false, true);
  }
}
