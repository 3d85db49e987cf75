package org.indexfs.server.security.token;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.DelegationToken;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.proto.TokenRequest;
import org.indexfs.server.op.Operation;

/** HDFS {@code renewDelegationToken}: by its renewer, with a Kerberos ticket; answers the new expiry. */
public final class RenewDelegationTokenOp implements Operation {
  private final DelegationTokens tokens;

  public RenewDelegationTokenOp(DelegationTokens tokens) {
    this.tokens = tokens;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    if (!"KERBEROS".equals(request.getCaller().getAuthMethod())) {
      throw new IndexFsException(Code.ACCESS_DENIED, "Delegation Token can be renewed only with kerberos or web authentication");
    }
    TokenRequest t = request.getRenewDelegationToken();
    try {
      long expiry = tokens.renewToken(DelegationTokens.token(t.getIdentifier().toByteArray(), t.getPassword().toByteArray()),
          request.getCaller().getUser());
      return Response.newBuilder().setToken(DelegationToken.newBuilder().setExpiryMs(expiry));
    } catch (org.apache.hadoop.security.AccessControlException | org.apache.hadoop.security.token.SecretManager.InvalidToken e) {
      throw new IndexFsException(Code.ACCESS_DENIED, e.getMessage());
    }
  }
}
