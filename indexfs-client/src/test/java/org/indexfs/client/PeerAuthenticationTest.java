package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.rpc.RpcConnection;
import org.indexfs.common.rpc.SaslAuthenticator;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.proto.GetFileStatusRequest;
import org.indexfs.proto.LocalizeRequest;
import org.indexfs.proto.PartitionRequest;
import org.indexfs.proto.PublishRequest;
import org.indexfs.proto.QuotaRequest;
import org.indexfs.proto.ReferencedRequest;
import org.indexfs.proto.RenameInRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.proto.SaslMessage;
import org.indexfs.proto.SnapshotRequest;
import org.indexfs.server.local.LocalCluster;
import org.indexfs.server.security.PeerSecret;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 31, item 5: in simple mode a client could send the calls only servers make — as bob, a
 * snapshot HOLD/TAKE/SCAN read a 0600 file's bytes and listed a 0700 directory; a HOLD re-sent every
 * few seconds kept every mutation out; a thousand RocksDB snapshots were held. Server-to-server calls
 * now need a peer that proved the cluster secret, a barrier's gate closes for a bounded time however
 * often its HOLD is repeated, and the RocksDB snapshots a slot keeps are capped.
 */
class PeerAuthenticationTest {
  private static final long HOLD_LIMIT_MS = 1_500;
  private static final int MAX_HELD = 3;
  private static LocalCluster cluster;
  private static EventLoopGroup group;

  @BeforeAll
  static void start() throws Exception {
    cluster = LocalCluster.builder(TestData.newDir("peers")).clusterName("peers").servers(2)
        .set(IndexFsConfig.SNAPSHOT_HOLD_LIMIT_MS.name(), String.valueOf(HOLD_LIMIT_MS))
        .set(IndexFsConfig.SNAPSHOT_MAX_HELD.name(), String.valueOf(MAX_HELD)).start();
    group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    try (IndexFsClient admin = TestData.client(cluster)) {
      admin.mkdirs("/alice", 0700);
      admin.setOwner("/alice", "alice", "alice");
    }
    try (IndexFsClient alice = Slots.client(cluster, "alice", List.of("alice"))) {
      alice.create("/alice/secret", 0600, false, 1, 1 << 20, false);
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
  }

  private static RpcConnection connect(int slot, SaslAuthenticator authenticator) throws IOException {
    return RpcConnection.open(group, cluster.server(slot).address(), 1 << 20, 10_000, authenticator);
  }

  private static SaslAuthenticator peer(String digest) {
    return PeerSecret.fromDigest(digest).toPeers(99);
  }

  private static Response call(RpcConnection c, String user, Request.Builder r) throws Exception {
    return c.call(r.setCaller(Caller.newBuilder().setUser(user))).get(30, TimeUnit.SECONDS);
  }

  private static Request.Builder snapshot(SnapshotRequest.Action action, long token) {
    return Request.newBuilder().setSnapshot(SnapshotRequest.newBuilder().setAction(action).setToken(token));
  }

  @Test
  void theCallsOnlyServersMakeAreRefusedToAClientWhoeverItNames() throws Exception {
    long alicesDir;
    try (IndexFsClient admin = TestData.client(cluster)) {
      alicesDir = admin.getFileStatus("/alice").getInodeId();
    }
    List<Request.Builder> serverForms = List.of(
        snapshot(SnapshotRequest.Action.HOLD, 7), snapshot(SnapshotRequest.Action.TAKE, 7),
        Request.newBuilder().setSnapshot(SnapshotRequest.newBuilder().setAction(SnapshotRequest.Action.SCAN)
            .setToken(7).setDirId(alicesDir)),
        Request.newBuilder().setSnapshot(SnapshotRequest.newBuilder().setAction(SnapshotRequest.Action.ROWS)
            .setToken(7).setDirId(alicesDir)),
        snapshot(SnapshotRequest.Action.OPEN_GATE, 7), snapshot(SnapshotRequest.Action.RELEASE, 7),
        Request.newBuilder().setSnapshot(SnapshotRequest.newBuilder().setAction(SnapshotRequest.Action.LIST_DIRS).setOn(true)),
        Request.newBuilder().setSnapshot(SnapshotRequest.newBuilder().setAction(SnapshotRequest.Action.COUNT).setDirId(1)),
        Request.newBuilder().setSnapshot(SnapshotRequest.newBuilder().setAction(SnapshotRequest.Action.REGISTER)
            .setDirId(alicesDir).setPath("/alice").setOn(true)),
        Request.newBuilder().setPartition(PartitionRequest.newBuilder().setAction(PartitionRequest.Action.DROP).setDirId(1)),
        Request.newBuilder().setRenameIn(RenameInRequest.newBuilder().setTxid("t").setSrc("/alice").setDst("/bob")),
        Request.newBuilder().setReferenced(ReferencedRequest.newBuilder().addObjects("x")),
        Request.newBuilder().setQuota(QuotaRequest.getDefaultInstance()),
        Request.newBuilder().setPublish(PublishRequest.newBuilder().setPhase(PublishRequest.Phase.COMMIT).setTxid("t")),
        Request.newBuilder().setLocalize(LocalizeRequest.newBuilder().setAction(LocalizeRequest.Action.MIRROR).setDirId(1)));
    for (int slot = 0; slot < 2; slot++) {
      try (RpcConnection bob = connect(slot, null)) {
        // bob as himself, and bob claiming to be the user the servers run as: neither is a server.
        for (String claimed : List.of("bob", TestData.USER)) {
          for (Request.Builder form : serverForms) {
            Response refused = call(bob, claimed, form.clone());
            assertEquals(Code.NOT_AUTHORIZED, refused.getCode(), form.getOpCase() + " as " + claimed + ": " + refused);
            assertEquals("User " + claimed + " is not an IndexFS server", refused.getMessage());
          }
        }
        // The client forms are served.
        Response listing = call(bob, "bob", Request.newBuilder().setSnapshot(SnapshotRequest.newBuilder()
            .setAction(SnapshotRequest.Action.LIST_DIRS)));
        assertEquals(Code.OK, listing.getCode(), listing.getMessage());
        if (slot == 0) { // the root's slot
          Response stat = call(bob, "bob", Request.newBuilder().setGetFileStatus(GetFileStatusRequest.newBuilder().setPath("/")));
          assertEquals(Code.OK, stat.getCode(), stat.getMessage());
        }
      }
    }
    try (IndexFsClient alice = Slots.client(cluster, "alice", List.of("alice"))) {
      assertTrue(alice.mkdirs("/alice/after", 0700), "no gate was left closed");
    }
  }

  @Test
  void onlyTheClusterSecretMakesAPeer() throws Exception {
    String user = cluster.zookeeperDigest().substring(0, cluster.zookeeperDigest().indexOf(':'));
    IOException wrong = assertThrows(IOException.class, () -> connect(0, peer(user + ":guessed")).close());
    assertTrue(wrong.getMessage().contains("Authentication failed"), wrong.getMessage());
    // A Kerberos exchange offered to a simple-mode server: refused too.
    try (RpcConnection raw = connect(0, null)) {
      Response r = raw.call(Request.newBuilder().setSasl(SaslMessage.newBuilder().setMechanism("GSSAPI")))
          .get(10, TimeUnit.SECONDS);
      assertEquals(Code.NOT_AUTHORIZED, r.getCode(), r.getMessage());
    }
    // With the secret, a server-only call is served.
    try (RpcConnection server = connect(1, peer(cluster.zookeeperDigest()))) {
      Response count = call(server, TestData.USER, Request.newBuilder().setSnapshot(SnapshotRequest.newBuilder()
          .setAction(SnapshotRequest.Action.COUNT).setDirId(1)));
      assertEquals(Code.OK, count.getCode(), count.getMessage());
    }
  }

  @Test
  void aHoldSentAgainAndAgainCannotKeepTheGateClosedPastItsBound() throws Exception {
    // Even a peer that holds the cluster secret (a coordinator gone wrong) gets a bounded barrier.
    try (RpcConnection coordinator = connect(0, peer(cluster.zookeeperDigest()));
        IndexFsClient admin = Slots.client(cluster, TestData.USER, List.of())) {
      long token = 4242;
      Response first = call(coordinator, TestData.USER, snapshot(SnapshotRequest.Action.HOLD, token));
      assertEquals(Code.OK, first.getCode(), first.getMessage());
      AtomicBoolean done = new AtomicBoolean();
      List<Response> again = new CopyOnWriteArrayList<>();
      Thread resender = new Thread(() -> {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!done.get() && System.nanoTime() < until) {
          try {
            again.add(call(coordinator, TestData.USER, snapshot(SnapshotRequest.Action.HOLD, token)));
            Thread.sleep(200);
          } catch (Exception e) {
            return;
          }
        }
      }, "hold-resender");
      resender.start();
      try {
        // The root's partition is on slot 0: its gate decides this mkdir.
        assertTrue(admin.mkdirs("/through-the-gate", 0755), "the mkdir got through");
      } finally {
        done.set(true);
        resender.join();
      }
      assertTrue(again.size() >= 3, "HOLD was sent again while the mkdir waited: " + again.size());
      // The resender's last try may have come before the bound ran out; one sent now comes after.
      Response last = call(coordinator, TestData.USER, snapshot(SnapshotRequest.Action.HOLD, token));
      assertEquals(Code.SNAPSHOT, last.getCode(), "the ended barrier's token closes nothing again: " + last);
      assertTrue(last.getMessage().contains("already ended"), last.getMessage());
      // A new barrier right after one ran out is refused for as long again.
      Response fresh = call(coordinator, TestData.USER, snapshot(SnapshotRequest.Action.HOLD, token + 1));
      assertEquals(Code.SNAPSHOT, fresh.getCode(), fresh.getMessage());
      assertTrue(fresh.getMessage().contains("ran out of time"), fresh.getMessage());
    }
  }

  @Test
  void aSlotKeepsABoundedNumberOfBarrierSnapshots() throws Exception {
    try (RpcConnection coordinator = connect(1, peer(cluster.zookeeperDigest()))) {
      for (long token = 1; token <= MAX_HELD + 1; token++) {
        assertEquals(Code.OK, call(coordinator, TestData.USER, snapshot(SnapshotRequest.Action.HOLD, 100 + token)).getCode());
        Response take = call(coordinator, TestData.USER, snapshot(SnapshotRequest.Action.TAKE, 100 + token));
        assertEquals(Code.OK, call(coordinator, TestData.USER, snapshot(SnapshotRequest.Action.OPEN_GATE, 100 + token)).getCode());
        if (token <= MAX_HELD) {
          assertEquals(Code.OK, take.getCode(), take.getMessage());
        } else {
          assertEquals(Code.SNAPSHOT, take.getCode(), "snapshot " + token + " over the cap: " + take);
          assertTrue(take.getMessage().contains(IndexFsConfig.SNAPSHOT_MAX_HELD.name()), take.getMessage());
        }
      }
      // One released: a new barrier keeps its snapshot again.
      assertEquals(Code.OK, call(coordinator, TestData.USER, snapshot(SnapshotRequest.Action.RELEASE, 101)).getCode());
      assertEquals(Code.OK, call(coordinator, TestData.USER, snapshot(SnapshotRequest.Action.HOLD, 200)).getCode());
      Response take = call(coordinator, TestData.USER, snapshot(SnapshotRequest.Action.TAKE, 200));
      assertEquals(Code.OK, take.getCode(), take.getMessage());
      for (long token : new long[] {102, 103, 200}) {
        call(coordinator, TestData.USER, snapshot(SnapshotRequest.Action.OPEN_GATE, token));
        call(coordinator, TestData.USER, snapshot(SnapshotRequest.Action.RELEASE, token));
      }
    }
  }
}
