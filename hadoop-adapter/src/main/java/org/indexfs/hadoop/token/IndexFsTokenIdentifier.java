package org.indexfs.hadoop.token;

import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.token.delegation.AbstractDelegationTokenIdentifier;

/**
 * An IndexFS delegation token's identifier on the client side, registered with Hadoop's
 * {@code TokenIdentifier} service so {@code Token.decodeIdentifier}, {@code hadoop dtutil} and YARN
 * can read it. Same kind and bytes as the servers' own class.
 */
public class IndexFsTokenIdentifier extends AbstractDelegationTokenIdentifier {
  public static final Text KIND = new Text("INDEXFS_DELEGATION_TOKEN");

  public IndexFsTokenIdentifier() {}

  @Override
  public Text getKind() {
    return KIND;
  }
}
