package org.indexfs.server.security.token;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.proto.TokenRequest;
import org.indexfs.server.op.Operation;

/** HDFS {@code cancelDelegationToken}: by its owner or renewer; the token is gone on every server. */
public final class CancelDelegationTokenOp implements Operation {
  private final DelegationTokens tokens;

  public CancelDelegationTokenOp(DelegationTokens tokens) {
    this.tokens = tokens;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    TokenRequest t = request.getCancelDelegationToken();
    try {
      tokens.cancelToken(DelegationTokens.token(t.getIdentifier().toByteArray(), t.getPassword().toByteArray()),
          request.getCaller().getUser());
      return Response.newBuilder();
    } catch (org.apache.hadoop.security.AccessControlException | org.apache.hadoop.security.token.SecretManager.InvalidToken e) {
      throw new IndexFsException(Code.ACCESS_DENIED, e.getMessage());
    }
  }
}
