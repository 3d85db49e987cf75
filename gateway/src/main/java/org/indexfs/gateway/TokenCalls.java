package org.indexfs.gateway;

import java.io.IOException;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.UserGroupInformation.AuthenticationMethod;
import org.apache.hadoop.security.token.SecretManager.InvalidToken;
import org.apache.hadoop.security.token.Token;

/**
 * HDFS delegation tokens, with the NameNode's rules (FSNamesystem): only a caller that
 * authenticated with Kerberos (itself, or the real user of a proxy) may get or renew one, so a
 * task holding a token cannot make more; the renewer named in a token renews it; its owner or
 * renewer cancels it, however they authenticated. The caller is always the one Hadoop's RPC
 * server authenticated, never a name the client sends. Without Kerberos there are none, and
 * getDelegationToken answers null as a NameNode does, so job submission goes on without.
 */
final class TokenCalls {
  private static final String ISSUE_NEEDS_KERBEROS =
      "Delegation Token can be issued only with kerberos or web authentication";
  private static final String RENEW_NEEDS_KERBEROS =
      "Delegation Token can be renewed only with kerberos or web authentication";
  private static final String NO_TOKENS = "the IndexFS gateway issues delegation tokens only with Kerberos"
      + " (hadoop.security.authentication=kerberos), so it knows no token";

  private final GatewayTokens tokens;

  TokenCalls(GatewayTokens tokens) {
    this.tokens = tokens;
  }

  Token<DelegationTokenIdentifier> getDelegationToken(Text renewer) throws IOException {
    if (tokens == null) {
      return null;
    }
    UserGroupInformation caller = kerberosCaller(ISSUE_NEEDS_KERBEROS);
    Text realUser = caller.getRealUser() == null ? null : new Text(caller.getRealUser().getUserName());
    DelegationTokenIdentifier id = new DelegationTokenIdentifier(new Text(caller.getUserName()), renewer, realUser);
    return new Token<>(id, tokens);
  }

  long renewDelegationToken(Token<DelegationTokenIdentifier> token) throws IOException {
    if (tokens == null) {
      throw new InvalidToken("Renewal request for a token the gateway did not issue: " + NO_TOKENS);
    }
    return tokens.renewToken(token, kerberosCaller(RENEW_NEEDS_KERBEROS).getShortUserName());
  }

  void cancelDelegationToken(Token<DelegationTokenIdentifier> token) throws IOException {
    if (tokens == null) {
      throw new InvalidToken("Cancel request for a token the gateway did not issue: " + NO_TOKENS);
    }
    tokens.cancelToken(token, RpcCall.current().user().getUserName());
  }

  /** The caller, who must have come with Kerberos credentials (its own, or as a proxy its real user's). */
  private static UserGroupInformation kerberosCaller(String refusal) throws IOException {
    UserGroupInformation caller = RpcCall.current().user();
    UserGroupInformation authenticated = caller.getRealUser() != null ? caller.getRealUser() : caller;
    AuthenticationMethod m = authenticated.getAuthenticationMethod();
    if (m != AuthenticationMethod.KERBEROS && m != AuthenticationMethod.KERBEROS_SSL
        && m != AuthenticationMethod.CERTIFICATE) {
      throw new IOException(refusal);
    }
    return caller;
  }
}
