package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.proto.GetFileStatusRequest;
import org.indexfs.proto.Request;
import org.indexfs.server.local.LocalCluster;
import org.indexfs.server.rpc.RpcServer;
import org.junit.jupiter.api.Test;

/**
 * Issue 31, items 11 and 12: what one client address can make a server hold. Attackers connect
 * from 127.0.0.2 (and .3, .4: on Linux every 127.x.y.z is this machine, and another client
 * address to the server); the victim is an ordinary client from 127.0.0.1.
 */
class ClientAddressLimitsTest {
  private static final Caller CALLER = Caller.newBuilder().setUser(TestData.USER).setClientId("raw").build();

  /**
   * 32 half-sent 4 MiB frames from one address hold at most that address's share of the buffer
   * budget, and another address's 64 KiB put goes through at once. Before the fix they filled the
   * whole budget and the put waited for the frames' deadline (27 s in the attack).
   */
  @Test
  void halfSentFramesOfOneAddressDoNotStarveAnother() throws Exception {
    long budget = 32L << 20;
    long perClient = 8L << 20;
    try (LocalCluster cluster = LocalCluster.builder(TestData.newDir("per-client-buffers"))
        .set("indexfs.rpc.max-buffered-bytes", String.valueOf(budget))
        .set("indexfs.rpc.max-buffered-bytes-per-client", String.valueOf(perClient))
        .start();
        IndexFsClient victim = TestData.client(cluster);
        LogCapture log = LogCapture.of(RpcServer.class)) {
      InetSocketAddress server = cluster.server().address();
      RpcServer rpc = cluster.server().rpc();
      victim.mkdirs("/puts", 0755);
      List<RawFrames> attack = new ArrayList<>();
      try {
        byte[] half = new byte[2 << 20];
        for (int i = 0; i < 32; i++) {
          RawFrames a = RawFrames.connectFrom(server, "127.0.0.2");
          attack.add(a);
          try {
            DataOutputStream out = new DataOutputStream(a.socket().getOutputStream());
            out.writeInt((4 << 20) - 8);
            out.write(half);
            out.flush();
          } catch (IOException closedByTheServer) {
            // refused at its length prefix: what should happen past the address's share
          }
        }
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (open(attack) > 2 && System.nanoTime() < deadline) {
          Thread.sleep(50);
        }
        assertTrue(rpc.partialFrameBytes() <= perClient, "held: " + rpc.partialFrameBytes());
        assertTrue(open(attack) <= 2, "attacker connections kept: " + open(attack));
        assertTrue(log.awaitMessageContaining("indexfs.rpc.max-buffered-bytes-per-client"), "logged: " + log.messages());

        long t0 = System.nanoTime();
        byte[] bytes = new byte[64 * 1024];
        long id = victim.create("/puts/f", 0644, false, 1, 1 << 20, false).getInodeId();
        victim.complete("/puts/f", id, bytes.length, bytes, null);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertEquals(bytes.length, victim.getFileStatus("/puts/f").getLength());
        assertTrue(ms < 5_000, "the 64 KiB put took " + ms + " ms");
      } finally {
        for (RawFrames a : attack) {
          a.close();
        }
      }
    }
  }

  /**
   * Connections past one address's cap, and past the total, are closed at once; others are served
   * and a fresh client connects. Before the fix 20,000 idle connections took every file descriptor.
   */
  @Test
  void connectionsAreCappedPerAddressAndInTotal() throws Exception {
    try (LocalCluster cluster = LocalCluster.builder(TestData.newDir("connection-caps"))
        .set("indexfs.rpc.max-connections-per-client", "20")
        .set("indexfs.rpc.max-connections", "50")
        .start();
        LogCapture log = LogCapture.of(RpcServer.class)) {
      InetSocketAddress server = cluster.server().address();
      List<RawFrames> held = new ArrayList<>();
      try {
        List<RawFrames> fromTwo = open(server, "127.0.0.2", 25, held);
        assertEquals(20, served(fromTwo), "connections from 127.0.0.2 served");
        assertTrue(log.awaitMessageContaining("indexfs.rpc.max-connections-per-client"), "logged: " + log.messages());
        List<RawFrames> fromThree = open(server, "127.0.0.3", 20, held);
        assertEquals(20, served(fromThree));
        List<RawFrames> fromFour = open(server, "127.0.0.4", 20, held);
        int four = served(fromFour);
        assertEquals(10, four, "past the total of 50, connections from 127.0.0.4 are closed");
        assertTrue(log.awaitMessageContaining("indexfs.rpc.max-connections)"), "logged: " + log.messages());
        // Room again once some go: a fresh client from 127.0.0.1 connects and is served.
        for (RawFrames r : fromTwo) {
          r.close();
        }
        try (IndexFsClient fresh = TestData.client(cluster)) {
          assertTrue(fresh.mkdirs("/after-the-flood", 0755));
        }
      } finally {
        for (RawFrames r : held) {
          r.close();
        }
      }
    }
  }

  /**
   * As HDFS's IPC server does: while more than the idle threshold are open, connections idle for
   * longer than the limit are closed; a connection in use is not.
   */
  @Test
  void idleConnectionsAreClosedWhenThereAreMany() throws Exception {
    try (LocalCluster cluster = LocalCluster.builder(TestData.newDir("idle-scan"))
        .set("indexfs.rpc.idle-threshold", "5")
        .set("indexfs.rpc.max-idle-ms", "500")
        .start()) {
      InetSocketAddress server = cluster.server().address();
      List<RawFrames> held = new ArrayList<>();
      try (RawFrames busy = RawFrames.connectFrom(server, "127.0.0.3")) {
        // A connection in use: a call every 100 ms, from before the idle ones open until the end.
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicReference<Throwable> busyFailed = new java.util.concurrent.atomic.AtomicReference<>();
        Thread user = new Thread(() -> {
          for (int calls = 0; !stop.get(); calls++) {
            try {
              if (busy.call(getFileStatus(calls)).getCode() != Code.OK) {
                throw new IOException("call " + calls + " refused");
              }
              Thread.sleep(100);
            } catch (IOException | InterruptedException e) {
              busyFailed.set(e);
              return;
            }
          }
        }, "busy-connection");
        user.start();
        try {
          Thread.sleep(300);
          List<RawFrames> idle = open(server, "127.0.0.2", 15, held);
          long deadline = System.nanoTime() + 10_000_000_000L;
          while (open(idle) > 5 && System.nanoTime() < deadline) {
            Thread.sleep(100);
          }
          assertTrue(open(idle) <= 5, "idle connections left: " + open(idle));
        } finally {
          stop.set(true);
          user.join(10_000);
        }
        assertEquals(null, busyFailed.get(), "the busy connection is kept");
      } finally {
        for (RawFrames r : held) {
          r.close();
        }
      }
    }
  }

  private static List<RawFrames> open(InetSocketAddress server, String from, int n, List<RawFrames> held)
      throws IOException {
    List<RawFrames> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      RawFrames r = RawFrames.connectFrom(server, from);
      out.add(r);
      held.add(r);
    }
    return out;
  }

  /** How many of {@code connections} the server has not closed (a short read finds no EOF). */
  private static int open(List<RawFrames> connections) throws IOException {
    int open = 0;
    for (RawFrames r : connections) {
      open += r.stillOpen() ? 1 : 0;
    }
    return open;
  }

  /** How many of {@code connections} answer a call (the others were closed by the server). */
  private static int served(List<RawFrames> connections) {
    int served = 0;
    for (RawFrames r : connections) {
      try {
        if (r.call(getFileStatus(1)).getCode() == Code.OK) {
          served++;
        }
      } catch (IOException closed) {
        // closed by the server
      }
    }
    return served;
  }

  private static Request getFileStatus(long callId) {
    return Request.newBuilder().setCallId(callId).setCaller(CALLER)
        .setGetFileStatus(GetFileStatusRequest.newBuilder().setPath("/")).build();
  }
}
