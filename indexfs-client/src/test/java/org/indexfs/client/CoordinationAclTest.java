package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.indexfs.common.ClusterConfig;
import org.indexfs.common.ClusterPaths;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.Request;
import org.indexfs.proto.ServerInfoRequest;
import org.indexfs.server.local.EmbeddedZooKeeper;
import org.indexfs.server.local.LocalCluster;
import org.indexfs.server.peer.Peers;
import org.indexfs.server.security.PeerSecret;
import org.indexfs.server.security.ResolutionKeys;
import org.indexfs.server.security.ServerZooKeeper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 31, item 4: ZooKeeper was open — every node {@code world:anyone:cdrwa}, so a plain client put
 * the cluster in safe mode, redirected a slot to a relay, and could replace the key node. Here a
 * plain ZooKeeper client (no authentication, or a wrong digest) tries each, and is refused; the
 * servers refuse a key node or slot record they did not write; a client refuses a slot map anyone
 * else could have written, before it sends anything. The cluster still serves, and clients read.
 */
class CoordinationAclTest {
  private static LocalCluster cluster;
  private static final String NAME = "zkacl";

  @BeforeAll
  static void start() throws Exception {
    cluster = LocalCluster.builder(TestData.newDir("zkacl")).clusterName(NAME).servers(2).start();
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** A ZooKeeper client with no authentication, and one with a digest that is not the servers'. */
  private static List<CuratorFramework> strangers() throws InterruptedException {
    List<CuratorFramework> out = new ArrayList<>();
    out.add(CuratorFrameworkFactory.newClient(cluster.zookeeperConnect(), new RetryOneTime(100)));
    String user = cluster.zookeeperDigest().substring(0, cluster.zookeeperDigest().indexOf(':'));
    out.add(CuratorFrameworkFactory.builder().connectString(cluster.zookeeperConnect()).retryPolicy(new RetryOneTime(100))
        .authorization("digest", (user + ":guessed").getBytes(StandardCharsets.UTF_8)).build());
    for (CuratorFramework c : out) {
      c.start();
      assertTrue(c.blockUntilConnected(10, TimeUnit.SECONDS));
    }
    return out;
  }

  private static void closeAll(List<CuratorFramework> clients) {
    clients.forEach(CuratorFramework::close);
  }

  @Test
  void aPlainClientCannotPutTheClusterInSafeMode() throws Exception {
    List<CuratorFramework> strangers = strangers();
    try {
      for (CuratorFramework zk : strangers) {
        assertThrows(KeeperException.NoAuthException.class,
            () -> zk.create().forPath(ClusterPaths.safeMode(NAME), "x".getBytes(StandardCharsets.UTF_8)));
      }
      try (IndexFsClient client = TestData.client(cluster)) {
        assertTrue(client.mkdirs("/not-in-safe-mode", 0755), "mutations go on");
      }
    } finally {
      closeAll(strangers);
    }
  }

  @Test
  void aPlainClientCannotRedirectOrReplaceASlotRecordButReadsIt() throws Exception {
    String slot0 = ClusterPaths.slot(NAME, 0);
    List<CuratorFramework> strangers = strangers();
    try {
      for (CuratorFramework zk : strangers) {
        byte[] real = zk.getData().forPath(slot0); // read-only: clients must find the servers
        assertEquals(cluster.server(0).address().getPort(), ClusterPaths.address(real).getPort());
        assertThrows(KeeperException.NoAuthException.class,
            () -> zk.setData().forPath(slot0, "127.0.0.1:6666".getBytes(StandardCharsets.UTF_8)));
        assertThrows(KeeperException.NoAuthException.class, () -> zk.delete().forPath(slot0));
        assertThrows(KeeperException.NoAuthException.class,
            () -> zk.create().forPath(ClusterPaths.slot(NAME, 7), "127.0.0.1:6666".getBytes(StandardCharsets.UTF_8)));
        assertThrows(KeeperException.NoAuthException.class,
            () -> zk.setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath(ClusterPaths.slots(NAME)));
        assertThrows(KeeperException.NoAuthException.class,
            () -> zk.setData().forPath(ClusterPaths.config(NAME), ClusterConfig.ofSlots(5).encode()));
      }
    } finally {
      closeAll(strangers);
    }
    // An operator restarts a server on this ensemble: it serves again, and clients find it.
    cluster.restartServer(1);
    try (IndexFsClient client = TestData.client(cluster)) {
      for (int i = 0; i < 6; i++) {
        client.mkdirs("/restarted/d" + i, 0755); // placement spreads them over both slots
      }
      assertEquals(6, client.listAll("/restarted").size());
    }
  }

  @Test
  void theKeyNodeCannotBeReadDeletedOrMadeAgain() throws Exception {
    String keys = ClusterPaths.resolutionKeys(NAME);
    String security = keys.substring(0, keys.lastIndexOf('/'));
    List<CuratorFramework> strangers = strangers();
    try {
      for (CuratorFramework zk : strangers) {
        assertThrows(KeeperException.NoAuthException.class, () -> zk.getData().forPath(keys));
        assertThrows(KeeperException.NoAuthException.class, () -> zk.delete().forPath(keys));
        assertThrows(KeeperException.NoAuthException.class, () -> zk.setData().forPath(keys, new byte[1]));
        assertThrows(KeeperException.NoAuthException.class,
            () -> zk.setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath(keys));
        assertThrows(KeeperException.NoAuthException.class, () -> zk.getChildren().forPath(security));
        assertThrows(KeeperException.NoAuthException.class, () -> zk.create().forPath(security + "/planted"));
      }
    } finally {
      closeAll(strangers);
    }
  }

  @Test
  void everyNodeTheServersWroteIsTheirsAloneToChange() throws Exception {
    try (CuratorFramework servers = cluster.serversInZooKeeper().connect(cluster.zookeeperConnect(), 10_000)) {
      List<String> nodes = new ArrayList<>();
      walk(servers, ClusterPaths.root(NAME), nodes);
      assertTrue(nodes.size() > 10, "the cluster's nodes: " + nodes);
      for (String node : nodes) {
        boolean secret = node.contains("/security");
        for (ACL a : servers.getACL().forPath(node)) {
          String who = a.getId().getScheme() + ":" + a.getId().getId();
          if (!who.equals(cluster.serversInZooKeeper().id())) {
            assertEquals(secret ? 0 : ZooDefs.Perms.READ, a.getPerms(), node + " lets " + who + " do " + a.getPerms());
          }
        }
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
  void serversRefuseAKeyNodeTheyDidNotWrite() throws Exception {
    // A key node anyone could have written (left by a version without ACLs, or planted before the
    // servers locked its parent): the servers' own session can still read it, and must not believe it.
    String planted = "planted-keys";
    ServerZooKeeper servers = cluster.serversInZooKeeper();
    try (CuratorFramework zk = servers.connect(cluster.zookeeperConnect(), 10_000)) {
      zk.create().creatingParentsIfNeeded().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE)
          .forPath(ClusterPaths.resolutionKeys(planted), new byte[0]);
    }
    IOException refused = assertThrows(IOException.class,
        () -> new ResolutionKeys(servers, cluster.zookeeperConnect(), 10_000, planted, 60_000).close());
    assertTrue(refused.getMessage().contains("was not written by this cluster's servers"), refused.getMessage());
  }

  @Test
  void serversRefuseASlotRecordTheyDidNotWrite() throws Exception {
    String planted = "planted-slot";
    ServerZooKeeper servers = cluster.serversInZooKeeper();
    try (ServerSocket relay = new ServerSocket(0); CuratorFramework zk = servers.connect(cluster.zookeeperConnect(), 10_000)) {
      AtomicInteger reached = accepting(relay);
      zk.create().creatingParentsIfNeeded().forPath(ClusterPaths.config(planted), ClusterConfig.ofSlots(2).encode());
      zk.create().creatingParentsIfNeeded().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE)
          .forPath(ClusterPaths.slot(planted, 1), ("127.0.0.1:" + relay.getLocalPort()).getBytes(StandardCharsets.UTF_8));
      try (Peers peers = new Peers(0, TestData.USER, 1 << 20, 5_000,
          PeerSecret.fromDigest(cluster.zookeeperDigest()).toPeers(0))) {
        peers.attach(zk, servers, planted, 2);
        IndexFsException e = assertThrows(IndexFsException.class,
            () -> peers.call(1, Request.newBuilder().setServerInfo(ServerInfoRequest.getDefaultInstance())));
        assertEquals(Code.NOT_AUTHORIZED, e.code());
        assertTrue(e.getMessage().contains("was not written by this cluster's servers"), e.getMessage());
      }
      assertEquals(0, reached.get(), "nothing was sent to the planted address");
    }
  }

  @Test
  void aClientRefusesASlotMapOthersCouldWriteBeforeSendingAnything() throws Exception {
    // An ensemble where the cluster's nodes were made by someone else first (the servers never
    // formatted it there): whoever comes first decides their ACL.
    try (EmbeddedZooKeeper other = new EmbeddedZooKeeper(TestData.newDir("other-zk").toFile(), 0);
        ServerSocket relay = new ServerSocket(0);
        CuratorFramework anyone = CuratorFrameworkFactory.newClient(other.connectString(), new RetryOneTime(100));
        CuratorFramework own = CuratorFrameworkFactory.builder().connectString(other.connectString())
            .retryPolicy(new RetryOneTime(100)).aclProvider(ServerZooKeeper.digest("mallory:mine"))
            .authorization("digest", "mallory:mine".getBytes(StandardCharsets.UTF_8)).build()) {
      AtomicInteger reached = accepting(relay);
      byte[] there = ("127.0.0.1:" + relay.getLocalPort()).getBytes(StandardCharsets.UTF_8);
      anyone.start();
      own.start();
      // Open to all, as every node was before issue 31.
      anyone.create().creatingParentsIfNeeded().forPath(ClusterPaths.config("evil"), ClusterConfig.ofSlots(1).encode());
      anyone.create().creatingParentsIfNeeded().forPath(ClusterPaths.slot("evil", 0), there);
      try (IndexFsClient client = new IndexFsClient(ClusterConnection.openUnshared(other.connectString(), "evil",
          IndexFsConfig.RPC_MAX_FRAME_BYTES.defaultValue(), 10_000), IndexFsClient.caller("alice", List.of(), "alice"),
          10_000, 1_000)) {
        IOException e = assertThrows(IOException.class, () -> client.getFileStatus("/secret-path"));
        assertTrue(e.getMessage().contains("Refusing IndexFS cluster 'evil'"), e.getMessage());
      }
      // Locked with a digest of the attacker's own: refused by a client told who the servers are.
      own.create().creatingParentsIfNeeded().forPath(ClusterPaths.config("mallorys"), ClusterConfig.ofSlots(1).encode());
      own.create().creatingParentsIfNeeded().forPath(ClusterPaths.slot("mallorys", 0), there);
      try (IndexFsClient client = new IndexFsClient(ClusterConnection.openUnshared(other.connectString(), "mallorys",
          IndexFsConfig.RPC_MAX_FRAME_BYTES.defaultValue(), 10_000, IndexFsConfig.CLIENT_CACHE_ENTRIES.defaultValue(),
          null, cluster.serversInZooKeeper().id()), IndexFsClient.caller("alice", List.of(), "alice"), 10_000, 1_000)) {
        IOException e = assertThrows(IOException.class, () -> client.getFileStatus("/secret-path"));
        assertTrue(e.getMessage().contains("the servers are " + cluster.serversInZooKeeper().id()), e.getMessage());
      }
      assertEquals(0, reached.get(), "the relay was never reached");
    }
  }

  @Test
  void clientsOfTheRealClusterCheckItsServersIdentity() throws Exception {
    String servers = cluster.clientConf().get(IndexFsConfig.SECURITY_ZOOKEEPER_SERVER_ID.name());
    assertEquals(cluster.serversInZooKeeper().id(), servers, "bin/indexfs local tells its clients");
    assertFalse(cluster.clientConf().containsValue(cluster.zookeeperDigest()), "and never the digest itself");
    try (IndexFsClient client = new IndexFsClient(ClusterConnection.openUnshared(cluster.zookeeperConnect(), NAME,
        IndexFsConfig.RPC_MAX_FRAME_BYTES.defaultValue(), 10_000, IndexFsConfig.CLIENT_CACHE_ENTRIES.defaultValue(),
        null, servers), IndexFsClient.caller(TestData.USER, List.of(), "checked"), 10_000)) {
      assertTrue(client.mkdirs("/checked", 0755));
    }
  }

  /** Counts connections made to {@code socket}, on a thread of its own. */
  private static AtomicInteger accepting(ServerSocket socket) {
    AtomicInteger n = new AtomicInteger();
    Thread t = new Thread(() -> {
      while (!socket.isClosed()) {
        try (var s = socket.accept()) {
          n.incrementAndGet();
        } catch (IOException closed) {
          return;
        }
      }
    }, "relay");
    t.setDaemon(true);
    t.start();
    return n;
  }
}
