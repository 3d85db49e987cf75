package org.indexfs.gateway;

import java.io.IOException;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;

/**
 * HDFS delegation tokens. Without Kerberos there are none: the NameNode then answers null, and
 * job submission goes on without a token.
 */
final class TokenCalls {
  Token<DelegationTokenIdentifier> getDelegationToken(Text renewer) throws IOException {
    if (!UserGroupInformation.isSecurityEnabled()) {
      return null;
    }
    throw Refusals.unsupported("getDelegationToken", "delegation tokens need the gateway's Kerberos setup");
  }

  long renewDelegationToken(Token<DelegationTokenIdentifier> token) throws IOException {
    throw new IOException("Delegation Token can be issued only with kerberos or web authentication");
  }

  void cancelDelegationToken(Token<DelegationTokenIdentifier> token) throws IOException {
    throw new IOException("Delegation Token can be issued only with kerberos or web authentication");
  }
}
