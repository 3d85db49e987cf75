package org.indexfs.it;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.gateway.Gateway;
import org.indexfs.server.local.LocalCluster;
import org.indexfs.server.local.LocalHdfs;

/**
 * What the jobs run against: one real HDFS (a MiniDFSCluster, one NameNode and three DataNodes, its
 * edit log fsynced) and an embedded IndexFS cluster whose data objects live on that same HDFS. So
 * {@code indexfs://} and {@code hdfs://} share one data tier and differ only in who owns the
 * namespace, which is the comparison the job timings make. On demand, an {@code hdfs://} gateway
 * ({@link #gateway}) in front of the IndexFS cluster, for stock HDFS clients.
 */
public final class JobCluster implements AutoCloseable {
  private final LocalHdfs hdfs;
  private final LocalCluster indexfs;
  private Gateway gateway;

  private JobCluster(LocalHdfs hdfs, LocalCluster indexfs) {
    this.hdfs = hdfs;
    this.indexfs = indexfs;
  }

  public static JobCluster start(Path workDir) throws IOException {
    LocalHdfs hdfs = LocalHdfs.start(workDir.resolve("hdfs"), LocalHdfs.DEFAULT_DATANODES, Map.of(), false);
    try {
      LocalCluster indexfs = LocalCluster.builder(workDir.resolve("indexfs")).clusterName("jobs")
          .set(IndexFsConfig.DATA_URI.name(), hdfs.uri() + "/indexfs-data")
          // The gateway acts for its callers as this process's user: the slot servers let it, as
          // LocalHdfs lets it on the data tier.
          .set("hadoop.proxyuser." + login() + ".hosts", "*")
          .set("hadoop.proxyuser." + login() + ".groups", "*")
          .start();
      return new JobCluster(hdfs, indexfs);
    } catch (IOException | RuntimeException e) {
      hdfs.close();
      throw e;
    }
  }

  /** {@code indexfs://jobs/}. */
  public URI indexfsUri() {
    return URI.create(indexfs.defaultFs());
  }

  /** {@code hdfs://localhost:<port>/}: the same HDFS IndexFS keeps its objects on. */
  public URI hdfsUri() {
    return URI.create(hdfs.uri() + "/");
  }

  /** The Hadoop settings a client of {@code target} needs: {@code fs.defaultFS} and, for IndexFS, ZooKeeper. */
  public Map<String, String> clientConf(Target target) {
    Map<String, String> conf = new LinkedHashMap<>();
    if (target == Target.INDEXFS) {
      conf.putAll(indexfs.clientConf());
    } else {
      conf.put("fs.defaultFS", hdfsUri().toString());
    }
    return conf;
  }

  /**
   * The cluster's NameNode-protocol gateway on an ephemeral loopback port, started on first use:
   * {@code hdfs://127.0.0.1:<port>} for the stock DistributedFileSystem, libhdfs3 and the like.
   */
  public synchronized Gateway gateway() throws IOException {
    if (gateway == null) {
      Configuration conf = new Configuration();
      indexfs.clientConf().forEach(conf::set);
      conf.set(IndexFsConfig.CLUSTER_NAME.name(), indexfs.clusterName());
      conf.set(IndexFsConfig.GATEWAY_BIND_HOST.name(), "127.0.0.1");
      conf.set(IndexFsConfig.GATEWAY_PORT.name(), "0");
      // The gateway installs its proxy-user rules for the whole process, the data tier's NameNode
      // included (Hadoop keeps one table): the same rules LocalHdfs gave that NameNode.
      conf.set("hadoop.proxyuser." + login() + ".hosts", "*");
      conf.set("hadoop.proxyuser." + login() + ".groups", "*");
      gateway = Gateway.start(conf);
    }
    return gateway;
  }

  /** What a stock Hadoop client of the gateway needs: {@code fs.defaultFS=hdfs://<gateway>}, nothing of IndexFS. */
  public Map<String, String> gatewayClientConf() throws IOException {
    return Map.of("fs.defaultFS", gateway().uri().toString());
  }

  private static String login() {
    try {
      return UserGroupInformation.getLoginUser().getShortUserName();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Override
  public synchronized void close() {
    if (gateway != null) {
      gateway.close();
    }
    indexfs.close();
    hdfs.close();
  }

  /** The two namespaces a job can run on. */
  public enum Target {
    INDEXFS("indexfs"), HDFS("hdfs");

    private final String label;

    Target(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }
}
