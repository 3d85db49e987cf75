package org.indexfs.bench.replay;

/** How a replay turns a record's {@code ugi=} user into the caller on the target. */
public enum Impersonation {
  /** {@code createProxyUser(user, login user)}: the target must let the login user impersonate (hadoop.proxyuser.*). */
  PROXY,
  /** {@code createRemoteUser(user)}: for clusters with simple authentication and no proxy settings. */
  REMOTE,
  /** Every call as one user ({@code --user}). */
  SINGLE
}
