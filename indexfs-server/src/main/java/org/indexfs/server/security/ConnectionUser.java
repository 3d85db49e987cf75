package org.indexfs.server.security;

/**
 * Who a connection proved to be (DESIGN §14): the short name of its Kerberos principal, or of the
 * owner of the delegation token it presented ({@code byToken}). Connections without authentication
 * (simple mode) have none.
 */
public record ConnectionUser(String user, boolean byToken) {}
