package org.indexfs.gateway;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.security.UserGroupInformation;
import org.indexfs.hadoop.IndexFsTestCluster;
import org.indexfs.server.local.LocalCluster;

/**
 * The test JVM's gateway: an IndexFS cluster on the tests' shared HDFS data tier
 * ({@link IndexFsTestCluster}: a MiniDFSCluster with three DataNodes), and a gateway in front of it
 * on an ephemeral port. The process user is the gateway's identity; both tiers let it act for
 * anyone (hadoop.proxyuser.<it>.*), as a deployment configures for the gateway's principal.
 */
public final class GatewayTestCluster {
  private static LocalCluster cluster;
  private static Gateway gateway;

  private GatewayTestCluster() {}

  /** The settings an IndexFS cluster needs to trust this process's gateways. */
  public static Map<String, String> trustingGateway(Map<String, String> more) {
    Map<String, String> s = new HashMap<>(more);
    String me = login();
    s.put("hadoop.proxyuser." + me + ".groups", "*");
    s.put("hadoop.proxyuser." + me + ".hosts", "*");
    return s;
  }

  static String login() {
    try {
      return UserGroupInformation.getLoginUser().getShortUserName();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static synchronized LocalCluster indexfs() {
    if (cluster == null) {
      cluster = IndexFsTestCluster.startCluster("gateway", trustingGateway(Map.of()));
      Runtime.getRuntime().addShutdownHook(new Thread(GatewayTestCluster::shutdown, "gateway-test-shutdown"));
    }
    return cluster;
  }

  public static synchronized Gateway gateway() {
    if (gateway == null) {
      gateway = startGateway(indexfs(), Map.of());
    }
    return gateway;
  }

  /** A gateway of its own for {@code c}; the caller closes it. */
  public static Gateway startGateway(LocalCluster c, Map<String, String> settings) {
    Configuration conf = gatewayConf(c);
    settings.forEach(conf::set);
    try {
      return Gateway.start(conf);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** What a gateway process for {@code c} is given: the cluster's client settings and an ephemeral port. */
  public static Configuration gatewayConf(LocalCluster c) {
    Configuration conf = IndexFsTestCluster.conf(c);
    conf.set("indexfs.cluster.name", c.clusterName());
    conf.set("indexfs.gateway.bind-host", "127.0.0.1");
    conf.set("indexfs.gateway.port", "0");
    // Hadoop keeps proxy-user rules in one table per process, which a gateway replaces with its own
    // as a NameNode does: the same rules as the tests' NameNodes (LocalHdfs, IndexFsTestCluster).
    conf.set("hadoop.proxyuser." + login() + ".hosts", "*");
    conf.set("hadoop.proxyuser." + login() + ".groups", "*");
    conf.set("hadoop.proxyuser." + IndexFsTestCluster.PROXY_USER + ".users", "alice");
    conf.set("hadoop.proxyuser." + IndexFsTestCluster.PROXY_USER + ".hosts", "*");
    return conf;
  }

  /** A stock Hadoop client configuration for hdfs://<gateway>: nothing of IndexFS in it. */
  public static Configuration clientConf(Gateway g) {
    Configuration conf = new Configuration(false);
    conf.addResource("core-default.xml");
    conf.set("fs.defaultFS", g.uri().toString());
    // Tests write small files in small blocks, as HDFS's own tests do.
    conf.setLong("dfs.blocksize", 1024 * 1024);
    return conf;
  }

  public static FileSystem newFileSystem(Gateway g) throws IOException {
    return FileSystem.newInstance(g.uri(), clientConf(g));
  }

  /** The same cluster through indexfs:// (the IndexFS client), to compare with. */
  public static FileSystem indexfsFileSystem(LocalCluster c) throws IOException {
    return FileSystem.newInstance(URI.create(c.defaultFs()), IndexFsTestCluster.conf(c));
  }

  private static synchronized void shutdown() {
    if (gateway != null) {
      gateway.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }
}
