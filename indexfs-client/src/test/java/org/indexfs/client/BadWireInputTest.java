package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnknownFieldSet;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.proto.FileType;
import org.indexfs.proto.GetFileStatusRequest;
import org.indexfs.proto.MkdirsRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.local.LocalCluster;
import org.indexfs.server.rpc.RpcServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Bytes off the wire that are not a request (DESIGN §9): a malformed or oversized frame closes
 * only its own connection with a logged reason; a well-formed request the server cannot run is
 * answered with BAD_REQUEST. Every test talks to the server over a raw socket and then checks
 * that an ordinary client, connected before the bad input arrived, is still served.
 */
class BadWireInputTest {
  private static final int MAX_FRAME = 64 * 1024;
  private static final Caller CALLER = Caller.newBuilder().setUser(TestData.USER).setClientId("raw").build();

  private static LocalCluster cluster;
  private static IndexFsClient client;
  private LogCapture log;
  private String testName;

  @BeforeAll
  static void startCluster() throws IOException {
    cluster = LocalCluster.builder(TestData.newDir("bad-wire"))
        .set("indexfs.rpc.max-frame-bytes", String.valueOf(MAX_FRAME))
        .start();
    client = TestData.client(cluster);
  }

  @AfterAll
  static void stopCluster() {
    if (client != null) {
      client.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  @BeforeEach
  void setUp(TestInfo info) throws IOException {
    testName = info.getTestMethod().orElseThrow().getName();
    // Opens the client's connection now, so "still works" below means "survived", not "reconnected".
    client.getFileStatus("/");
    log = LogCapture.of(RpcServer.class);
  }

  @AfterEach
  void tearDown() {
    log.close();
  }

  @Test
  void garbageFrameClosesThatConnectionAndLogsWhy() throws Exception {
    // Field 1 with wire type 7 (which does not exist), then bytes that are no varint either.
    byte[] garbage = {0x0F, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x13, 0x37};
    assertThrows(InvalidProtocolBufferException.class, () -> Request.parseFrom(garbage));
    try (Socket s = connect()) {
      DataOutputStream out = new DataOutputStream(s.getOutputStream());
      out.writeInt(garbage.length);
      out.write(garbage);
      out.flush();
      assertClosedByServer(s);
    }
    assertTrue(log.awaitMessageContaining("malformed request frame"), "logged: " + log.messages());
    assertOrdinaryClientStillServed();
  }

  @Test
  void truncatedFrameFollowedByEofDoesNotHurtTheServer() throws Exception {
    try (Socket s = connect()) {
      DataOutputStream out = new DataOutputStream(s.getOutputStream());
      out.writeInt(100);
      out.write(new byte[10]);
      out.flush();
      s.shutdownOutput();
      assertClosedByServer(s);
    }
    assertOrdinaryClientStillServed();
  }

  @Test
  void oversizedFrameClosesOnlyThatConnection() throws Exception {
    try (Socket s = connect()) {
      sendExpectingClose(s, MAX_FRAME * 2, new byte[1024]);
      assertClosedByServer(s);
    }
    assertTrue(log.awaitMessageContaining("oversized frame"), "logged: " + log.messages());
    assertOrdinaryClientStillServed();
  }

  @Test
  void negativeLengthPrefixClosesThatConnection() throws Exception {
    try (Socket s = connect()) {
      sendExpectingClose(s, -5, new byte[16]);
      assertClosedByServer(s);
    }
    assertOrdinaryClientStillServed();
  }

  /** The limit counts the whole frame, length prefix included, as the server's reply check does. */
  @Test
  void frameOfExactlyTheLimitIsServedAndOneByteMoreIsNot() throws Exception {
    try (Socket s = connect()) {
      send(s, paddedTo(MAX_FRAME - 4, 1));
      Response r = receive(s);
      assertEquals(1, r.getCallId());
      assertEquals(Code.OK, r.getCode(), r.getMessage());
      byte[] tooBig = paddedTo(MAX_FRAME - 3, 2);
      sendExpectingClose(s, tooBig.length, tooBig);
      assertClosedByServer(s);
    }
    assertOrdinaryClientStillServed();
  }

  @Test
  void unknownOperationIsABadRequestAndTheConnectionStaysUsable() throws Exception {
    Request unknownOp = Request.newBuilder().setCallId(41).setCaller(CALLER)
        .setUnknownFields(UnknownFieldSet.newBuilder()
            .addField(99, UnknownFieldSet.Field.newBuilder().addVarint(1).build()).build())
        .build();
    Request noOp = Request.newBuilder().setCallId(42).setCaller(CALLER).build();
    try (Socket s = connect()) {
      send(s, unknownOp.toByteArray());
      Response r = receive(s);
      assertEquals(41, r.getCallId());
      assertEquals(Code.BAD_REQUEST, r.getCode());

      send(s, noOp.toByteArray());
      r = receive(s);
      assertEquals(42, r.getCallId());
      assertEquals(Code.BAD_REQUEST, r.getCode());

      send(s, getFileStatus(43, "/").toByteArray());
      r = receive(s);
      assertEquals(43, r.getCallId());
      assertEquals(Code.OK, r.getCode(), r.getMessage());
      assertEquals(FileType.DIRECTORY, r.getStatus().getType());
    }
    assertOrdinaryClientStillServed();
  }

  @Test
  void requestWithoutCallerIsABadRequestAndChangesNothing() throws Exception {
    String dir = "/" + testName;
    Request noCaller = Request.newBuilder().setCallId(7)
        .setMkdirs(MkdirsRequest.newBuilder().setPath(dir).setPermission(0755)).build();
    Request emptyUser = noCaller.toBuilder().setCallId(8)
        .setCaller(Caller.newBuilder().setClientId("anonymous")).build();
    try (Socket s = connect()) {
      send(s, noCaller.toByteArray());
      Response r = receive(s);
      assertEquals(7, r.getCallId());
      assertEquals(Code.BAD_REQUEST, r.getCode());

      send(s, emptyUser.toByteArray());
      r = receive(s);
      assertEquals(8, r.getCallId());
      assertEquals(Code.BAD_REQUEST, r.getCode());

      send(s, getFileStatus(9, "/").toByteArray());
      assertEquals(Code.OK, receive(s).getCode());
    }
    IndexFsException e = assertThrows(IndexFsException.class, () -> client.getFileStatus(dir));
    assertEquals(Code.FILE_NOT_FOUND, e.code());
    assertOrdinaryClientStillServed();
  }

  /** The client connected before the test still gets answers: mkdirs then getFileStatus. */
  private void assertOrdinaryClientStillServed() throws IOException {
    String dir = "/survivors/" + testName;
    assertTrue(client.mkdirs(dir, 0755));
    assertEquals(FileType.DIRECTORY, client.getFileStatus(dir).getType());
  }

  private static Request getFileStatus(long callId, String path) {
    return Request.newBuilder().setCallId(callId).setCaller(CALLER)
        .setGetFileStatus(GetFileStatusRequest.newBuilder().setPath(path)).build();
  }

  /** A getFileStatus("/") request padded with an unknown field to exactly {@code size} bytes. */
  private static byte[] paddedTo(int size, long callId) {
    Request base = getFileStatus(callId, "/");
    for (int pad = size - base.getSerializedSize() - 8; pad <= size; pad++) {
      Request padded = base.toBuilder().setUnknownFields(UnknownFieldSet.newBuilder()
          .addField(99, UnknownFieldSet.Field.newBuilder()
              .addLengthDelimited(ByteString.copyFrom(new byte[pad])).build()).build()).build();
      if (padded.getSerializedSize() == size) {
        return padded.toByteArray();
      }
    }
    throw new AssertionError("cannot pad a request to " + size + " bytes");
  }

  private static Socket connect() throws IOException {
    InetSocketAddress address = cluster.server().address();
    Socket s = new Socket(address.getAddress(), address.getPort());
    s.setSoTimeout(10_000);
    return s;
  }

  private static void send(Socket s, byte[] payload) throws IOException {
    DataOutputStream out = new DataOutputStream(s.getOutputStream());
    out.writeInt(payload.length);
    out.write(payload);
    out.flush();
  }

  /** Sends a frame the server may refuse (and close on) before it has read all of it. */
  private static void sendExpectingClose(Socket s, int lengthPrefix, byte[] body) {
    try {
      DataOutputStream out = new DataOutputStream(s.getOutputStream());
      out.writeInt(lengthPrefix);
      out.write(body);
      out.flush();
    } catch (IOException e) {
      // reset or broken pipe: the server already closed, which assertClosedByServer accepts
    }
  }

  private static Response receive(Socket s) throws IOException {
    DataInputStream in = new DataInputStream(s.getInputStream());
    byte[] frame = new byte[in.readInt()];
    in.readFully(frame);
    return Response.parseFrom(frame);
  }

  /** The server closed its end: reads reach EOF (or a reset), and no reply ever arrives. */
  private static void assertClosedByServer(Socket s) throws IOException {
    try {
      int b = s.getInputStream().read();
      assertEquals(-1, b, "the server sent data instead of closing the connection");
    } catch (SocketTimeoutException e) {
      fail("the server kept the connection open for 10 s");
    } catch (IOException e) {
      // "Connection reset": the server closed with our unread bytes in its buffer. Closed all the same.
    }
  }
}
