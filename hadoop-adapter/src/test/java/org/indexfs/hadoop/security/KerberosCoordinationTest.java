package org.indexfs.hadoop.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authentication.util.JaasConfiguration;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.ClientInfo;
import org.indexfs.common.ClusterPaths;
import org.indexfs.common.rpc.RpcConnection;
import org.indexfs.common.rpc.SaslAuthenticator;
import org.indexfs.hadoop.IndexFsTestCluster;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.proto.SnapshotRequest;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 31, items 4 and 5 with Kerberos (Hadoop's MiniKdc, a Kerberized ZooKeeper): the servers
 * write every node with the SASL ACL of their principal ({@code sasl:indexfs}), and bob — an
 * authenticated non-superuser, to ZooKeeper (SASL) and to the servers (GSSAPI) — cannot put the
 * cluster in safe mode, redirect a slot, replace the key node, read the delegation-token secrets, or
 * send the snapshot barrier's calls.
 */
class KerberosCoordinationTest {
  private static final String NAME = "kzk";
  private static TestKdc kdc;
  private static String realm;
  private static LocalCluster cluster;
  private static Configuration conf;
  private static EventLoopGroup group;

  @BeforeAll
  static void start() throws Exception {
    kdc = TestKdc.start("kdc-zk", "indexfs/localhost", "alice", "bob");
    realm = kdc.realm;
    conf = kdc.clientConf("indexfs");
    cluster = kdc.cluster(NAME, 2, "indexfs")
        .set(IndexFsTestCluster.GROUP_MAPPING_KEY, IndexFsTestCluster.TEST_GROUPS)
        .start();
    cluster.clientConf().forEach(conf::set);
    group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    // A delegation token issued, so its secret is in ZooKeeper too.
    try (FileSystem fs = login("alice").doAs((PrivilegedExceptionAction<FileSystem>) () ->
        FileSystem.newInstance(URI.create(cluster.defaultFs()), conf))) {
      assertTrue(fs.getDelegationToken("alice") != null);
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (group != null) {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }
    if (cluster != null) {
      cluster.close();
    }
    if (kdc != null) {
      kdc.close();
    }
  }

  private static UserGroupInformation login(String user) throws IOException {
    return kdc.login(user);
  }

  /** bob's own ZooKeeper session, authenticated with SASL (GSSAPI) as bob. */
  private static CuratorFramework bobInZooKeeper() throws Exception {
    String section = "bob-zookeeper-" + System.nanoTime();
    javax.security.auth.login.Configuration.setConfiguration(
        new JaasConfiguration(section, "bob@" + realm, kdc.keytab.getAbsolutePath()));
    ZKClientConfig zk = new ZKClientConfig();
    zk.setProperty(ZKClientConfig.LOGIN_CONTEXT_NAME_KEY, section);
    // The embedded ZooKeeper logs in as the servers' principal (LocalCluster).
    zk.setProperty(ZKClientConfig.ZOOKEEPER_SERVER_PRINCIPAL, "indexfs/localhost@" + realm);
    CuratorFramework bob = CuratorFrameworkFactory.builder().connectString(cluster.zookeeperConnect())
        .retryPolicy(new RetryOneTime(100)).zkClientConfig(zk).build();
    bob.start();
    assertTrue(bob.blockUntilConnected(30, TimeUnit.SECONDS));
    List<String> who = new ArrayList<>();
    for (ClientInfo c : bob.getZookeeperClient().getZooKeeper().whoAmI()) {
      who.add(c.getAuthScheme() + ":" + c.getUser());
    }
    assertTrue(who.contains("sasl:bob"), "bob is authenticated to ZooKeeper: " + who);
    return bob;
  }

  @Test
  void theServersWriteEveryNodeWithTheirPrincipalsAcl() throws Exception {
    assertEquals("sasl:indexfs", cluster.serversInZooKeeper().id());
    try (CuratorFramework servers = cluster.serversInZooKeeper().connect(cluster.zookeeperConnect(), 30_000)) {
      List<String> nodes = new ArrayList<>();
      walk(servers, ClusterPaths.root(NAME), nodes);
      assertTrue(nodes.stream().anyMatch(n -> n.contains("/tokens/")), "the token secrets are there: " + nodes);
      for (String node : nodes) {
        boolean secret = node.contains("/security") || node.contains("/tokens");
        boolean theirs = false;
        for (ACL a : servers.getACL().forPath(node)) {
          String who = a.getId().getScheme() + ":" + a.getId().getId();
          if (who.equals("sasl:indexfs")) {
            theirs = a.getPerms() == ZooDefs.Perms.ALL;
          } else {
            assertEquals(secret ? 0 : ZooDefs.Perms.READ, a.getPerms(), node + " lets " + who + " do " + a.getPerms());
          }
        }
        assertTrue(theirs, node + " is the servers'");
      }
    }
  }

  private static void walk(CuratorFramework zk, String path, List<String> out) throws Exception {
    out.add(path);
    for (String child : zk.getChildren().forPath(path)) {
      walk(zk, path + "/" + child, out);
    }
  }

  @Test
  void bobAuthenticatedToZooKeeperChangesNothingAndReadsNoSecret() throws Exception {
    String keys = ClusterPaths.resolutionKeys(NAME);
    String tokens = ClusterPaths.root(NAME) + "/tokens";
    List<String> secrets = new ArrayList<>();
    try (CuratorFramework servers = cluster.serversInZooKeeper().connect(cluster.zookeeperConnect(), 30_000)) {
      walk(servers, tokens, secrets);
    }
    assertTrue(secrets.stream().anyMatch(n -> n.contains("/DK_")), "a master key: " + secrets);
    assertTrue(secrets.stream().anyMatch(n -> n.contains("/DT_")), "alice's token: " + secrets);
    try (CuratorFramework bob = bobInZooKeeper();
        CuratorFramework anyone = CuratorFrameworkFactory.newClient(cluster.zookeeperConnect(), new RetryOneTime(100))) {
      anyone.start();
      for (CuratorFramework zk : List.of(bob, anyone)) {
        assertThrows(KeeperException.NoAuthException.class,
            () -> zk.create().forPath(ClusterPaths.safeMode(NAME), "x".getBytes(StandardCharsets.UTF_8)));
        String slot0 = ClusterPaths.slot(NAME, 0);
        assertFalse(new String(zk.getData().forPath(slot0), StandardCharsets.UTF_8).isEmpty(), "clients read slot records");
        assertThrows(KeeperException.NoAuthException.class,
            () -> zk.setData().forPath(slot0, "127.0.0.1:6666".getBytes(StandardCharsets.UTF_8)));
        assertThrows(KeeperException.NoAuthException.class, () -> zk.delete().forPath(slot0));
        assertThrows(KeeperException.NoAuthException.class, () -> zk.getData().forPath(keys));
        assertThrows(KeeperException.NoAuthException.class, () -> zk.delete().forPath(keys));
        assertThrows(KeeperException.NoAuthException.class,
            () -> zk.create().forPath(keys.substring(0, keys.lastIndexOf('/')) + "/planted"));
        for (String secret : secrets) {
          assertThrows(KeeperException.NoAuthException.class, () -> zk.getData().forPath(secret), secret);
        }
      }
    }
  }

  @Test
  void bobAuthenticatedToTheServersCannotSendTheBarriersCalls() throws Exception {
    UserGroupInformation bob = login("bob");
    SaslAuthenticator kerberos = new SaslAuthenticator("test:bob", new SaslAuthenticator.Login() {
      @Override
      public <T> T run(PrivilegedExceptionAction<T> action) throws IOException {
        try {
          return bob.doAs(action);
        } catch (InterruptedException e) {
          throw new IOException(e);
        }
      }
    }, address -> SecurityUtil.getServerPrincipal("indexfs/_HOST@" + realm, address.getAddress()), "auth");
    for (int slot = 0; slot < 2; slot++) {
      try (RpcConnection c = RpcConnection.open(group, cluster.server(slot).address(), 1 << 20, 10_000, kerberos)) {
        for (SnapshotRequest.Action action : List.of(SnapshotRequest.Action.HOLD, SnapshotRequest.Action.TAKE,
            SnapshotRequest.Action.SCAN, SnapshotRequest.Action.ROWS, SnapshotRequest.Action.OPEN_GATE,
            SnapshotRequest.Action.RELEASE)) {
          Response r = c.call(Request.newBuilder().setCaller(Caller.newBuilder().setUser("bob"))
              .setSnapshot(SnapshotRequest.newBuilder().setAction(action).setToken(7).setDirId(1)))
              .get(30, TimeUnit.SECONDS);
          assertEquals(Code.NOT_AUTHORIZED, r.getCode(), action + ": " + r);
          assertEquals("User bob is not an IndexFS server", r.getMessage());
        }
      }
    }
  }
}
