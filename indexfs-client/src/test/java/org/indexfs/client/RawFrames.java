package org.indexfs.client;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;

/**
 * A client that speaks the wire protocol byte by byte, as an attacker would: length-prefixed
 * protobuf frames over a plain socket, optionally from a chosen loopback address (127.0.0.2 … are
 * all this machine on Linux, and each is another client address to the server).
 */
final class RawFrames implements AutoCloseable {
  private final Socket socket;
  private final DataOutputStream out;
  private final DataInputStream in;

  private RawFrames(Socket socket) throws IOException {
    this.socket = socket;
    socket.setSoTimeout(30_000);
    this.out = new DataOutputStream(socket.getOutputStream());
    this.in = new DataInputStream(socket.getInputStream());
  }

  static RawFrames connect(InetSocketAddress server) throws IOException {
    return new RawFrames(new Socket(server.getAddress(), server.getPort()));
  }

  /** A connection from local address {@code from} (e.g. "127.0.0.2"). */
  static RawFrames connectFrom(InetSocketAddress server, String from) throws IOException {
    return new RawFrames(new Socket(server.getAddress(), server.getPort(), InetAddress.getByName(from), 0));
  }

  Socket socket() {
    return socket;
  }

  void send(Request request) throws IOException {
    byte[] body = request.toByteArray();
    out.writeInt(body.length);
    out.write(body);
    out.flush();
  }

  Response receive() throws IOException {
    byte[] frame = new byte[in.readInt()];
    in.readFully(frame);
    return Response.parseFrom(frame);
  }

  Response call(Request request) throws IOException {
    send(request);
    return receive();
  }

  /** True when the server closed the connection: a read reaches EOF or a reset (no data arrives). */
  boolean closedByServer() {
    try {
      return in.read() < 0;
    } catch (IOException reset) {
      return true;
    }
  }

  /** True while the server keeps the connection: nothing to read within 50 ms, and no EOF or reset. */
  boolean stillOpen() throws IOException {
    int timeout = socket.getSoTimeout();
    socket.setSoTimeout(50);
    try {
      return in.read() >= 0; // a stray byte: open, though the caller did not expect one
    } catch (java.net.SocketTimeoutException quiet) {
      return true;
    } catch (IOException reset) {
      return false;
    } finally {
      if (!socket.isClosed()) {
        socket.setSoTimeout(timeout);
      }
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
