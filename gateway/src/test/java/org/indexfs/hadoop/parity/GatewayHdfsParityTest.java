package org.indexfs.hadoop.parity;

import java.io.IOException;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.gateway.Gateway;
import org.indexfs.gateway.GatewayTestCluster;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * HdfsParityTest's steps — FileSystem and FileContext calls and {@code hadoop fs} commands — on a
 * real NameNode and on hdfs://<gateway> in front of IndexFS (one slot, and four slots whose
 * directories split at four entries), both through the stock HDFS client: the transcripts must
 * be identical, exceptions and shell output included. The IndexFS clusters keep their objects on
 * the reference HDFS itself, under their own directory.
 */
class GatewayHdfsParityTest {
  private static LocalCluster one;
  private static LocalCluster four;
  private static Gateway oneGateway;
  private static Gateway fourGateway;

  @BeforeAll
  static void start() {
    one = cluster("paritygw1", 1);
    oneGateway = GatewayTestCluster.startGateway(one, Map.of());
  }

  @AfterAll
  static void stop() {
    for (AutoCloseable c : new AutoCloseable[] {oneGateway, fourGateway, one, four}) {
      if (c != null) {
        try {
          c.close();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      }
    }
  }

  private static LocalCluster cluster(String name, int slots) {
    try {
      return LocalCluster.builder(org.indexfs.hadoop.IndexFsTestCluster.newWorkDir(name)).clusterName(name)
          .servers(slots)
          .set(IndexFsConfig.DATA_URI.name(), ParityClusters.hdfs().uri() + "/" + name + "-data")
          .set(IndexFsConfig.SPLIT_THRESHOLD.name(), "4")
          .set("hadoop.proxyuser." + loginUser() + ".groups", "*")
          .set("hadoop.proxyuser." + loginUser() + ".hosts", "*")
          .start();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static String loginUser() {
    try {
      return org.apache.hadoop.security.UserGroupInformation.getLoginUser().getShortUserName();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void oneSlotThroughTheGatewayBehavesLikeHdfs() throws IOException {
    check("gateway-one", oneGateway);
  }

  @Test
  void fourSplittingSlotsThroughTheGatewayBehaveLikeHdfs() throws IOException {
    four = cluster("paritygw4", 4);
    fourGateway = GatewayTestCluster.startGateway(four, Map.of());
    check("gateway-four", fourGateway);
  }

  private static void check(String label, Gateway gateway) throws IOException {
    String base = "/parity/" + label;
    try (Parity.Target hdfs = ParityClusters.hdfsTarget(base);
        Parity.Target viaGateway = new Parity.Target("hdfs via gateway (" + label + ")", gateway.uri(),
            new Configuration(), new Path(base))) {
      Parity.assertSameAsHdfs(hdfs, viaGateway, HdfsParityTest.steps());
    }
  }
}
