package org.indexfs.server.security.token;

import com.google.protobuf.ByteString;
import java.io.IOException;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.token.Token;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.proto.DelegationToken;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.op.Operation;

/**
 * HDFS {@code getDelegationToken}: a token for the caller (a proxy call: for the effective user,
 * with the real user recorded), renewable by {@code renewer}. Only a caller who came with a
 * Kerberos ticket may ask, as on a NameNode: a token cannot beget tokens.
 */
public final class GetDelegationTokenOp implements Operation {
  private final DelegationTokens tokens;

  public GetDelegationTokenOp(DelegationTokens tokens) {
    this.tokens = tokens;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    Caller caller = request.getCaller();
    boolean kerberos = "KERBEROS".equals(caller.getAuthMethod())
        || ("PROXY".equals(caller.getAuthMethod()) && "KERBEROS".equals(caller.getRealAuthMethod()));
    if (!kerberos) {
      throw new IndexFsException(Code.ACCESS_DENIED, "Delegation Token can be issued only with kerberos or web authentication");
    }
    Text real = caller.getRealUser().isEmpty() ? new Text() : new Text(caller.getRealUser());
    ServerTokenIdentifier id = new ServerTokenIdentifier(new Text(caller.getUser()),
        new Text(request.getGetDelegationToken().getRenewer()), real);
    Token<ServerTokenIdentifier> token = new Token<>(id, tokens);
    return Response.newBuilder().setToken(DelegationToken.newBuilder()
        .setIdentifier(ByteString.copyFrom(token.getIdentifier()))
        .setPassword(ByteString.copyFrom(token.getPassword())));
  }
}
