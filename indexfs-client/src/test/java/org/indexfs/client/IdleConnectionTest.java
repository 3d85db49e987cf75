package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataOutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.indexfs.server.local.LocalCluster;
import org.indexfs.server.rpc.RpcServer;
import org.junit.jupiter.api.Test;

/** A peer that sends half a frame and goes quiet does not hold a server connection forever. */
class IdleConnectionTest {
  @Test
  void halfSentFrameIsDroppedAfterTheIdleTimeoutAndOthersAreServed() throws Exception {
    try (LocalCluster cluster = LocalCluster.builder(TestData.newDir("idle"))
            .set("indexfs.rpc.idle-timeout-seconds", "1").start();
        LogCapture log = LogCapture.of(RpcServer.class);
        IndexFsClient client = TestData.client(cluster)) {
      InetSocketAddress addr = cluster.server().address();
      try (Socket s = new Socket(addr.getHostString(), addr.getPort())) {
        s.setSoTimeout(20_000);
        DataOutputStream out = new DataOutputStream(s.getOutputStream());
        out.writeInt(100);
        out.write(new byte[10]);
        out.flush();
        long start = System.nanoTime();
        int b;
        try {
          b = s.getInputStream().read();
        } catch (java.io.IOException reset) {
          b = -1;
        }
        assertEquals(-1, b, "the server closes the stalled connection");
        assertTrue(System.nanoTime() - start < 15_000_000_000L, "closed by the idle timeout, not the read timeout");
      }
      assertTrue(log.awaitMessageContaining("nothing received"), "logged: " + log.messages());
      // A client whose connection went idle just reconnects.
      assertTrue(client.mkdirs("/after-idle", 0755));
      Thread.sleep(3000);
      assertEquals("after-idle", client.getFileStatus("/after-idle").getName());
    }
  }
}
