package org.indexfs.gateway;

import com.google.common.cache.CacheBuilder;
import com.google.common.cache.CacheLoader;
import com.google.common.cache.LoadingCache;
import com.google.common.cache.RemovalListener;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.security.PrivilegedExceptionAction;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.NameNodeProxiesClient;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * The NameNode of the data tier ({@code indexfs.data.uri}, DESIGN §6), which owns the blocks of
 * every data object: block calls are forwarded to it with HDFS's own client proxy, as the end user
 * (a proxy user of the gateway's identity, which the data tier must allow with its
 * {@code hadoop.proxyuser.<gateway>.*}), so its permission checks, leases and block tokens are the
 * ones that apply. One proxy per user, kept while it is used (Hadoop's RPC client pools the
 * connections beneath them by user).
 */
final class DataTierNameNode implements AutoCloseable {
  private final URI nameNode;
  private final String root;
  private final Configuration conf;
  private final UserGroupInformation gateway;
  private final LoadingCache<String, ClientProtocol> byUser;
  private org.apache.hadoop.fs.FileSystem own;

  private DataTierNameNode(URI dataUri, Configuration conf, UserGroupInformation gateway) {
    this.nameNode = URI.create(dataUri.getScheme() + "://" + dataUri.getAuthority());
    String path = dataUri.getPath() == null ? "" : dataUri.getPath();
    this.root = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    this.conf = conf;
    this.gateway = gateway;
    this.byUser = CacheBuilder.newBuilder().expireAfterAccess(10, TimeUnit.MINUTES)
        .removalListener((RemovalListener<String, ClientProtocol>) n -> RPC.stopProxy(n.getValue()))
        .build(new CacheLoader<>() {
          @Override
          public ClientProtocol load(String user) throws IOException {
            UserGroupInformation ugi = user.equals(gateway.getShortUserName()) ? gateway
                : UserGroupInformation.createProxyUser(user, gateway);
            return open(ugi);
          }
        });
  }

  /** The data tier behind {@code dataUri}, or null when it is not HDFS (a local directory has no NameNode). */
  static DataTierNameNode of(String dataUri, Configuration conf, UserGroupInformation gateway) {
    if (dataUri == null || dataUri.isEmpty()) {
      return null;
    }
    URI uri = URI.create(dataUri);
    return "hdfs".equals(uri.getScheme()) ? new DataTierNameNode(uri, conf, gateway) : null;
  }

  private ClientProtocol open(UserGroupInformation ugi) throws IOException {
    try {
      return ugi.doAs((PrivilegedExceptionAction<ClientProtocol>) () ->
          NameNodeProxiesClient.createProxyWithClientProtocol(conf, nameNode, null).getProxy());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted connecting to the data tier's NameNode " + nameNode);
    }
  }

  /** The object's path on the data tier ({@code <data.uri>/<name>}). */
  String pathOf(String objectName) {
    return root + "/" + objectName;
  }

  /** The data tier's NameNode as {@code call}'s user. */
  ClientProtocol as(RpcCall call) throws IOException {
    return as(call.userName());
  }

  /** The data tier's NameNode as the gateway itself (its inline copies, cluster-wide reports). */
  ClientProtocol asGateway() throws IOException {
    return as(gateway.getShortUserName());
  }

  private ClientProtocol as(String user) throws IOException {
    try {
      return byUser.get(user);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
    }
  }

  URI uri() {
    return nameNode;
  }

  /**
   * The gateway's own HDFS client of the data tier, for the bytes it writes itself (an inline
   * file's bytes, made an object or a read copy); no umask, as the modes it sets are exact.
   */
  synchronized org.apache.hadoop.fs.FileSystem fileSystem() throws IOException {
    if (own == null) {
      Configuration c = new Configuration(conf);
      c.set("fs.permissions.umask-mode", "000");
      try {
        own = gateway.doAs((PrivilegedExceptionAction<org.apache.hadoop.fs.FileSystem>) () ->
            org.apache.hadoop.fs.FileSystem.newInstance(nameNode, c));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("Interrupted connecting to the data tier " + nameNode);
      }
    }
    return own;
  }

  @Override
  public synchronized void close() {
    if (own != null) {
      try {
        own.close();
      } catch (IOException e) {
        org.slf4j.LoggerFactory.getLogger(DataTierNameNode.class).warn("Closing the data tier's client: {}", e.toString());
      }
      own = null;
    }
    byUser.invalidateAll();
    byUser.cleanUp();
  }
}
