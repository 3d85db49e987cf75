package org.indexfs.hadoop.token;

import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.security.token.TokenRenewer;
import org.indexfs.hadoop.IndexFileSystem;

/**
 * Renews and cancels IndexFS delegation tokens for YARN's and MapReduce's token machinery (Hadoop's
 * {@code TokenRenewer} service): the token's service names its cluster ({@code indexfs:<cluster>}),
 * and the call goes to that cluster as the current (Kerberos) user.
 */
public class IndexFsTokenRenewer extends TokenRenewer {
  @Override
  public boolean handleKind(Text kind) {
    return IndexFsTokenIdentifier.KIND.equals(kind);
  }

  @Override
  public boolean isManaged(Token<?> token) {
    return true;
  }

  @Override
  public long renew(Token<?> token, Configuration conf) throws IOException {
    try (IndexFileSystem fs = open(token, conf)) {
      return fs.client().renewDelegationToken(token.getIdentifier(), token.getPassword());
    }
  }

  @Override
  public void cancel(Token<?> token, Configuration conf) throws IOException {
    try (IndexFileSystem fs = open(token, conf)) {
      fs.client().cancelDelegationToken(token.getIdentifier(), token.getPassword());
    }
  }

  private static IndexFileSystem open(Token<?> token, Configuration conf) throws IOException {
    String service = token.getService().toString();
    if (!service.startsWith(IndexFileSystem.TOKEN_SERVICE_PREFIX)) {
      throw new IOException("Not an IndexFS token service: " + service);
    }
    URI uri = URI.create(IndexFileSystem.SCHEME + "://" + service.substring(IndexFileSystem.TOKEN_SERVICE_PREFIX.length()) + "/");
    return (IndexFileSystem) FileSystem.newInstance(uri, conf);
  }
}
