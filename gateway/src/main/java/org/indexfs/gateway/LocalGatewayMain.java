package org.indexfs.gateway;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.server.local.LocalMain;

/**
 * {@code bin/indexfs local}: the embedded cluster ({@link LocalMain}, same arguments) with a
 * NameNode-protocol gateway beside it, so stock Hadoop reaches it too:
 * {@code hadoop fs -ls hdfs://localhost:<port>/}. The gateway's URI is printed with the cluster's
 * and written to {@code <work dir>/gateway.uri}.
 */
public final class LocalGatewayMain {
  private LocalGatewayMain() {}

  public static void main(String[] args) throws Exception {
    LocalMain.run(args, cluster -> {
      Configuration conf = new Configuration();
      for (Map.Entry<String, String> e : cluster.clientConf().entrySet()) {
        conf.set(e.getKey(), e.getValue());
      }
      conf.set(IndexFsConfig.CLUSTER_NAME.name(), cluster.clusterName());
      conf.set(IndexFsConfig.GATEWAY_BIND_HOST.name(), "127.0.0.1");
      conf.set(IndexFsConfig.GATEWAY_PORT.name(), System.getProperty("indexfs.local.gateway-port", "0"));
      // The gateway sets this process's proxy-user rules (Hadoop keeps one table per process): the
      // same ones as the embedded HDFS (LocalHdfs), whose NameNode shares the table with it.
      String me = org.apache.hadoop.security.UserGroupInformation.getLoginUser().getShortUserName();
      conf.set("hadoop.proxyuser." + me + ".hosts", "*");
      conf.set("hadoop.proxyuser." + me + ".groups", "*");
      Gateway gateway = Gateway.start(conf);
      java.nio.file.Files.writeString(cluster.workDir().resolve("gateway.uri"), gateway.uri() + "\n");
      List<String> banner = new ArrayList<>();
      banner.add("  hdfs:// gateway: " + gateway.uri() + " (stock Hadoop: hadoop fs -ls " + gateway.uri() + "/)");
      if (cluster.hdfs() == null) {
        banner.add("                   names only: file bytes through it need the HDFS data tier (--hdfs)");
      }
      return new LocalMain.Companion.Started(banner, gateway);
    });
  }
}
