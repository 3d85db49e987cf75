package org.indexfs.server.security.token;

import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.token.delegation.AbstractDelegationTokenIdentifier;

/**
 * An IndexFS delegation token's identifier, as servers decode it: Hadoop's owner, renewer, real
 * user, dates, sequence number and key id, of kind {@link #KIND}. (Clients have their own class of
 * the same kind and bytes, registered with Hadoop's TokenIdentifier service, in the adapter.)
 */
public final class ServerTokenIdentifier extends AbstractDelegationTokenIdentifier {
  public static final Text KIND = new Text("INDEXFS_DELEGATION_TOKEN");

  public ServerTokenIdentifier() {}

  public ServerTokenIdentifier(Text owner, Text renewer, Text realUser) {
    super(owner, renewer, realUser);
  }

  @Override
  public Text getKind() {
    return KIND;
  }
}
