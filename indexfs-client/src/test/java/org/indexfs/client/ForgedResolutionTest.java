package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.KeeperException;
import org.indexfs.common.ClusterPaths;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.rpc.RpcConnection;
import org.indexfs.proto.Ancestor;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.proto.DeleteRequest;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.GetFileStatusRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Resolution;
import org.indexfs.proto.Response;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 15, finding 3: a client that sends a made-up or altered resolution (claiming a 0700
 * directory is 0777, or moving a real directory up its path to skip a check) gets nothing for it.
 * Servers believe only ancestors they sealed; a genuine resolution still works (and is refused
 * exactly as a walk from the root would be); the keys themselves are not readable through a
 * client's ZooKeeper session.
 */
class ForgedResolutionTest {
  private static final String DIGEST = "indexfs:test-secret";
  private static LocalCluster cluster;
  private static IndexFsClient admin;
  private static EventLoopGroup group;
  private static String sec;
  private static String inner;
  private static FileStatus secStatus;
  private static FileStatus innerStatus;

  @BeforeAll
  static void start() throws Exception {
    Path dir = TestData.newDir("forged");
    // No cached leases (fixed 0 ms): resolutions are vouched for only the short grace, so expiry is testable.
    cluster = LocalCluster.builder(dir).clusterName("forged").servers(2)
        .set(IndexFsConfig.SECURITY_ZOOKEEPER_DIGEST.name(), DIGEST)
        .set(IndexFsConfig.SECURITY_RESOLUTION_GRACE_MS.name(), "1500")
        .start();
    admin = Slots.client(cluster, TestData.USER, List.of());
    // alice's 0700 directory homed on slot 1, an open directory in it homed elsewhere, a file in that.
    secStatus = Slots.dirNotOn(admin, "/", "sec", 0);
    sec = "/" + secStatus.getName();
    innerStatus = Slots.dirNotOn(admin, sec, "inner", secStatus.getZerothSlot());
    inner = sec + "/" + innerStatus.getName();
    admin.setPermission(inner, 0777);
    long file = admin.create(inner + "/open", 0666, false, 1, 1 << 20, false).getInodeId();
    admin.complete(inner + "/open", file, 0, new byte[0], "");
    admin.setOwner(sec, "alice", "alicegroup");
    admin.setPermission(sec, 0700);
    group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
  }

  @AfterAll
  static void stop() throws Exception {
    if (admin != null) {
      admin.close();
    }
    if (group != null) {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  private static Response send(int slot, Request.Builder request) throws Exception {
    try (RpcConnection c = RpcConnection.open(group, cluster.server(slot).address(),
        IndexFsConfig.RPC_MAX_FRAME_BYTES.defaultValue(), 5_000)) {
      return c.call(request.setCaller(Caller.newBuilder().setUser("bob").setClientId("mallory")))
          .get(10, TimeUnit.SECONDS);
    }
  }

  private static Request.Builder stat(String path, Resolution r) {
    return Request.newBuilder().setGetFileStatus(GetFileStatusRequest.newBuilder().setPath(path)).setResolution(r);
  }

  private static Request.Builder delete(String path, Resolution r) {
    return Request.newBuilder().setDelete(DeleteRequest.newBuilder().setPath(path)).setResolution(r);
  }

  /** What slot 0 tells bob when his walk leaves it: the root and {@code sec}, both sealed. */
  private static Resolution genuine() throws Exception {
    Response r = send(0, stat(inner + "/open", Resolution.getDefaultInstance()));
    assertEquals(Code.RESOLVE_ELSEWHERE, r.getCode(), r.getMessage());
    assertEquals(2, r.getResolved().getAncestorsCount());
    assertEquals(32, r.getResolved().getAncestors(1).getMac().size());
    return r.getResolved();
  }

  private static int slotOf(Resolution r) {
    return r.getAncestors(r.getAncestorsCount() - 1).getZerothSlot();
  }

  private static void assertFileStillThere() throws Exception {
    assertEquals(0, admin.getFileStatus(inner + "/open").getLength());
  }

  @Test
  void aGenuineResolutionIsRefusedAsAWalkFromTheRootWouldBe() throws Exception {
    Resolution r = genuine();
    Response answer = send(slotOf(r), stat(inner + "/open", r));
    for (int hops = 0; answer.getCode() == Code.RESOLVE_ELSEWHERE && hops < 4; hops++) {
      r = answer.getResolved();
      answer = send(slotOf(r), stat(inner + "/open", r));
    }
    assertEquals(Code.ACCESS_DENIED, answer.getCode(), answer.getMessage());
    assertTrue(answer.getMessage().startsWith("Permission denied: user=bob, access=EXECUTE"), answer.getMessage());
  }

  @Test
  void aResolutionClaimingAClosedDirectoryIsOpenIsRefused() throws Exception {
    Resolution r = genuine();
    Ancestor opened = r.getAncestors(1).toBuilder().setPermission(0777).build();
    Resolution altered = r.toBuilder().setAncestors(1, opened).build();
    for (Request.Builder call : List.of(stat(inner + "/open", altered), delete(inner + "/open", altered))) {
      Response answer = send(slotOf(r), call);
      assertEquals(Code.STALE_RESOLUTION, answer.getCode(), answer.getMessage());
    }
    // Owner and group are sealed too.
    Resolution owned = r.toBuilder().setAncestors(1, r.getAncestors(1).toBuilder().setOwner("bob")).build();
    assertEquals(Code.STALE_RESOLUTION, send(slotOf(r), delete(inner + "/open", owned)).getCode());
    assertFileStillThere();
  }

  @Test
  void aMadeUpResolutionWithGuessedIdsIsRefused() throws Exception {
    Resolution forged = Resolution.newBuilder()
        .addAncestors(Ancestor.newBuilder().setInodeId(org.indexfs.common.InodeIds.ROOT).setPermission(0755)
            .setOwner(TestData.USER).setGroup("supergroup"))
        .addAncestors(Ancestor.newBuilder().setInodeId(secStatus.getInodeId()).setPermission(0777)
            .setOwner("forged-owner").setGroup("forged-group").setZerothSlot(secStatus.getZerothSlot())
            .setKeyId(1).setVouchedUntilMs(Long.MAX_VALUE).setMac(com.google.protobuf.ByteString.copyFrom(new byte[32])))
        .build();
    for (int slot = 0; slot < 2; slot++) {
      Response answer = send(slot, delete(inner + "/open", forged));
      assertEquals(Code.STALE_RESOLUTION, answer.getCode(), answer.getMessage());
      // Names in a refused resolution never reach the principals table.
      assertTrue(!cluster.server(slot).namespace().principals().knows("forged-owner"));
      assertTrue(!cluster.server(slot).namespace().principals().knows("forged-group"));
    }
    assertFileStillThere();
  }

  @Test
  void aRealDirectoryMovedUpThePathToSkipACheckIsRefused() throws Exception {
    // Bob walks on at sec's slot: inner lives elsewhere, so he is handed a sealed inner (the walk
    // checks nothing; the operation would, at the end)...
    Resolution r = genuine();
    Response walked = send(slotOf(r), stat(inner + "/open", r));
    assertEquals(Code.RESOLVE_ELSEWHERE, walked.getCode(), walked.getMessage());
    Resolution deeper = walked.getResolved();
    assertEquals(3, deeper.getAncestorsCount());
    // ... and presents it right under the root, as if the path were /inner/open, skipping sec.
    Resolution skipped = Resolution.newBuilder().addAncestors(deeper.getAncestors(0))
        .addAncestors(deeper.getAncestors(2)).build();
    Response answer = send(slotOf(deeper), delete("/" + innerStatus.getName() + "/open", skipped));
    assertEquals(Code.STALE_RESOLUTION, answer.getCode(), answer.getMessage());
    // The honest use of the same seals is refused for what it is: bob may not pass sec.
    answer = send(slotOf(deeper), delete(inner + "/open", deeper));
    assertEquals(Code.ACCESS_DENIED, answer.getCode(), answer.getMessage());
    assertFileStillThere();
  }

  @Test
  void aSealIsGoodOnlyUntilItsGraceEnds() throws Exception {
    Resolution r = genuine();
    Thread.sleep(3_000); // the longest lease (1 s) and the grace (1.5 s) have passed
    Response answer = send(slotOf(r), stat(inner + "/open", r));
    assertEquals(Code.STALE_RESOLUTION, answer.getCode(), answer.getMessage());
  }

  @Test
  void theKeysAreNotReadableThroughAClientsZooKeeperSession() throws Exception {
    try (CuratorFramework zk = CuratorFrameworkFactory.newClient(cluster.zookeeperConnect(), new RetryOneTime(100))) {
      zk.start();
      // NoAuth, not NoNode: the keys are there, for the servers' digest only.
      assertThrows(KeeperException.NoAuthException.class,
          () -> zk.getData().forPath(ClusterPaths.resolutionKeys("forged")));
    }
  }

  @Test
  void honestClientsStillResolveThroughTheirCache() throws Exception {
    try (IndexFsClient alice = Slots.client(cluster, "alice", List.of())) {
      alice.getFileStatus(inner + "/open");
      long before = alice.rpcCounters().get(RpcCounters.TOTAL);
      alice.getFileStatus(inner + "/open");
      assertEquals(before + 1, alice.rpcCounters().get(RpcCounters.TOTAL), "one RPC with a warm cache");
    }
  }
}
