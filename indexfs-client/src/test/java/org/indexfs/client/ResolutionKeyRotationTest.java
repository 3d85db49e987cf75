package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.rpc.RpcConnection;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.GetFileStatusRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Resolution;
import org.indexfs.proto.Response;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.Test;

/**
 * The sealing key rotates with a grace period (DESIGN §14): after one rotation, seals made under the
 * previous key are still good; after the next, that key is gone and its seals are refused.
 */
class ResolutionKeyRotationTest {
  @Test
  void sealsOutliveOneRotationAndNotTwo() throws Exception {
    EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    try (LocalCluster cluster = LocalCluster.builder(TestData.newDir("rotation")).clusterName("rotation").servers(2)
        .set(IndexFsConfig.SECURITY_KEY_ROTATION_MS.name(), "4000")
        .set(IndexFsConfig.SECURITY_RESOLUTION_GRACE_MS.name(), "60000")
        .start();
        IndexFsClient admin = Slots.client(cluster, TestData.USER, List.of())) {
      FileStatus d = Slots.dirNotOn(admin, "/", "d", 0);
      String path = "/" + d.getName() + "/f";
      Resolution first = resolution(group, cluster, path);
      int firstKey = first.getAncestors(1).getKeyId();
      Resolution later = waitForKeyOtherThan(group, cluster, path, firstKey);
      int secondKey = later.getAncestors(1).getKeyId();
      // Still good under the previous key: the walk goes on (the file does not exist).
      assertEquals(Code.FILE_NOT_FOUND, call(group, cluster, d.getZerothSlot(), path, first).getCode());
      waitForKeyOtherThan(group, cluster, path, secondKey);
      // Every server drops the first key within one refresh (a quarter of the rotation period).
      Code afterTwo = null;
      for (long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5); System.nanoTime() < end; Thread.sleep(100)) {
        afterTwo = call(group, cluster, d.getZerothSlot(), path, first).getCode();
        if (afterTwo == Code.STALE_RESOLUTION) {
          break;
        }
      }
      assertEquals(Code.STALE_RESOLUTION, afterTwo);
      assertEquals(Code.FILE_NOT_FOUND, call(group, cluster, d.getZerothSlot(), path, later).getCode());
    } finally {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }
  }

  private static Resolution waitForKeyOtherThan(EventLoopGroup group, LocalCluster cluster, String path, int key)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (System.nanoTime() < deadline) {
      Resolution r = resolution(group, cluster, path);
      if (r.getAncestors(1).getKeyId() != key) {
        return r;
      }
      Thread.sleep(250);
    }
    throw new AssertionError("the key never rotated");
  }

  private static Resolution resolution(EventLoopGroup group, LocalCluster cluster, String path) throws Exception {
    Response r = call(group, cluster, 0, path, Resolution.getDefaultInstance());
    assertEquals(Code.RESOLVE_ELSEWHERE, r.getCode(), r.getMessage());
    assertNotEquals(0, r.getResolved().getAncestors(1).getMac().size());
    return r.getResolved();
  }

  private static Response call(EventLoopGroup group, LocalCluster cluster, int slot, String path, Resolution r)
      throws Exception {
    try (RpcConnection c = RpcConnection.open(group, cluster.server(slot).address(),
        IndexFsConfig.RPC_MAX_FRAME_BYTES.defaultValue(), 5_000)) {
      return c.call(Request.newBuilder().setCaller(Caller.newBuilder().setUser(TestData.USER).setClientId("k"))
          .setGetFileStatus(GetFileStatusRequest.newBuilder().setPath(path)).setResolution(r)).get(10, TimeUnit.SECONDS);
    }
  }
}
