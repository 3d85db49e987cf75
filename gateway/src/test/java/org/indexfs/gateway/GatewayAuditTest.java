package org.indexfs.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.LoggingEvent;
import org.indexfs.hadoop.IndexFsTestCluster;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Calls through the gateway appear in the slot servers' HDFS-format audit log as the end user's,
 * from the client's address (127.0.0.2 here), not the gateway's (127.0.0.1), as a NameNode behind
 * HDFS's Router logs them: the gateway names the client, and servers believe it only from users
 * listed in indexfs.security.address-proxy-users.
 */
class GatewayAuditTest {
  private static final String AUDIT_LOGGER = "org.apache.hadoop.hdfs.server.namenode.FSNamesystem.audit";

  private static LocalCluster trusting;
  private static LocalCluster distrusting;
  private static Gateway trustingGateway;
  private static Gateway distrustingGateway;
  private static final Capture capture = new Capture();

  /** IndexFS's own audit lines (written by its audit thread, not the NameNode's handlers). */
  static final class Capture extends AppenderSkeleton {
    final List<String> lines = new ArrayList<>();

    @Override
    protected synchronized void append(LoggingEvent event) {
      if (event.getThreadName().startsWith("indexfs-audit")) {
        lines.add(event.getRenderedMessage());
      }
    }

    synchronized List<String> with(String text) {
      return lines.stream().filter(l -> l.contains(text)).toList();
    }

    @Override
    public void close() {}

    @Override
    public boolean requiresLayout() {
      return false;
    }
  }

  @BeforeAll
  static void start() {
    Logger audit = Logger.getLogger(AUDIT_LOGGER);
    audit.setLevel(org.apache.log4j.Level.INFO);
    audit.addAppender(capture);
    trusting = IndexFsTestCluster.startCluster("audit-trust", GatewayTestCluster.trustingGateway(
        Map.of("indexfs.security.address-proxy-users", GatewayTestCluster.login())));
    distrusting = IndexFsTestCluster.startCluster("audit-distrust", GatewayTestCluster.trustingGateway(Map.of()));
    trustingGateway = GatewayTestCluster.startGateway(trusting, Map.of());
    distrustingGateway = GatewayTestCluster.startGateway(distrusting, Map.of());
  }

  @AfterAll
  static void stop() {
    Logger.getLogger(AUDIT_LOGGER).removeAppender(capture);
    for (AutoCloseable c : new AutoCloseable[] {trustingGateway, distrustingGateway, trusting, distrusting}) {
      try {
        c.close();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** As alice, on a client socket from 127.0.0.2: mkdirs, then a listing. */
  private static void asAliceFromSecondAddress(Gateway g, String dir) throws Exception {
    Configuration conf = GatewayTestCluster.clientConf(g);
    conf.set("hadoop.rpc.socket.factory.class.default", SecondLoopbackSocketFactory.class.getName());
    UserGroupInformation alice = UserGroupInformation.createUserForTesting("alice", new String[] {"alicegroup"});
    try (FileSystem root = GatewayTestCluster.newFileSystem(g)) {
      root.mkdirs(new Path("/audit"));
      root.setPermission(new Path("/audit"), new org.apache.hadoop.fs.permission.FsPermission((short) 0777));
    }
    alice.doAs((PrivilegedExceptionAction<Void>) () -> {
      try (FileSystem fs = FileSystem.newInstance(g.uri(), conf)) {
        fs.mkdirs(new Path(dir));
        fs.listStatus(new Path(dir));
      }
      return null;
    });
  }

  private static List<String> waitForLines(String text) throws InterruptedException {
    for (int i = 0; i < 100; i++) {
      List<String> found = capture.with(text);
      if (!found.isEmpty()) {
        return found;
      }
      Thread.sleep(100);
    }
    return List.of();
  }

  @Test
  void theAuditLogShowsTheEndUserAndTheClientsAddress() throws Exception {
    asAliceFromSecondAddress(trustingGateway, "/audit/from-client");
    // The audit log is written in batches: wait for the listing's line too, not only the first one.
    List<String> lines = waitForLines("src=/audit/from-client");
    for (int i = 0; i < 100 && lines.stream().noneMatch(l -> l.contains("cmd=listStatus")); i++) {
      Thread.sleep(100);
      lines = capture.with("src=/audit/from-client");
    }
    assertThat(lines).isNotEmpty();
    String login = GatewayTestCluster.login();
    for (String line : lines) {
      assertThat(line).contains("ugi=alice (auth:PROXY) via " + login).contains("ip=/" + SecondLoopbackSocketFactory.ADDRESS);
    }
    assertThat(lines).anyMatch(l -> l.contains("cmd=mkdirs")).anyMatch(l -> l.contains("cmd=listStatus"));
  }

  @Test
  void aProxyTheServersDoNotTrustCannotChooseTheAddress() throws Exception {
    asAliceFromSecondAddress(distrustingGateway, "/audit/untrusted");
    List<String> lines = waitForLines("src=/audit/untrusted");
    assertThat(lines).isNotEmpty().allMatch(l -> l.contains("ip=/127.0.0.1") && l.contains("ugi=alice (auth:PROXY)"));
  }
}
