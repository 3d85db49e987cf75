package org.indexfs.common.rpc;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import com.google.protobuf.ByteString;
import javax.security.sasl.SaslClient;
import javax.security.sasl.SaslException;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.Request;
import org.indexfs.proto.SaslMessage;
import org.indexfs.proto.Response;

/**
 * One connection to one server, with many calls in flight: each call gets an id and a future,
 * and replies complete the futures in whatever order they arrive. A broken connection fails
 * every pending call with an IOException.
 *
 * <p>Callers encode their request on their own thread into a pooled buffer; the I/O thread writes
 * everything queued since its last turn with one flush, so concurrent callers share syscalls.
 */
public final class RpcConnection implements AutoCloseable {
  private final InetSocketAddress address;
  private final Channel channel;
  private final Map<Long, CompletableFuture<Response>> pending = new ConcurrentHashMap<>();
  /** Call ids are unique in the process, so a caller may fix one for all tries of a call ({@link #newCallId}). */
  private static final AtomicLong NEXT_CALL_ID = new AtomicLong(1);
  private final ConcurrentLinkedQueue<ByteBuf> outgoing = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean drainScheduled = new AtomicBoolean();
  private final Runnable drain = this::drain;

  private RpcConnection(InetSocketAddress address, Channel channel) {
    this.address = address;
    this.channel = channel;
  }

  public static RpcConnection open(EventLoopGroup group, InetSocketAddress address, int maxFrameBytes,
      int connectTimeoutMs) throws IOException {
    return open(group, address, maxFrameBytes, connectTimeoutMs, null);
  }

  /**
   * As above; with an {@code authenticator}, the connection first proves the caller's Kerberos
   * identity to the server (SASL), and is returned only once the server accepted it.
   */
  public static RpcConnection open(EventLoopGroup group, InetSocketAddress address, int maxFrameBytes,
      int connectTimeoutMs, SaslAuthenticator authenticator) throws IOException {
    ReplyHandler handler = new ReplyHandler();
    Bootstrap b = new Bootstrap()
        .group(group)
        .channel(Transport.socketChannel(group))
        .option(ChannelOption.TCP_NODELAY, true)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMs)
        .handler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            Framing.install(ch.pipeline(), maxFrameBytes);
            ch.pipeline().addLast("replies", handler);
          }
        });
    ChannelFuture f = b.connect(address).awaitUninterruptibly();
    if (!f.isSuccess()) {
      throw new IOException("Cannot connect to IndexFS server " + address + ": " + f.cause(), f.cause());
    }
    RpcConnection conn = new RpcConnection(address, f.channel());
    handler.connection = conn;
    if (authenticator != null) {
      try {
        conn.authenticate(authenticator, connectTimeoutMs);
      } catch (IOException | RuntimeException e) {
        conn.close();
        throw e;
      }
    }
    return conn;
  }

  /** The SASL exchange (RFC 4422), as calls on this connection; the server answers each step. */
  private void authenticate(SaslAuthenticator authenticator, int timeoutMs) throws IOException {
    SaslClient sasl = authenticator.client(address);
    boolean keepOpen = false;
    try {
      byte[] token = sasl.hasInitialResponse() ? authenticator.evaluate(sasl, new byte[0]) : new byte[0];
      SaslMessage.Builder step = SaslMessage.newBuilder().setMechanism(authenticator.mechanism());
      for (int round = 0; round < 10; round++) {
        Response r = await(call(Request.newBuilder().setSasl(step.setToken(ByteString.copyFrom(token)))), timeoutMs);
        if (r.getCode() != Code.OK) {
          throw new IndexFsException(r.getCode(), r.getMessage());
        }
        SaslMessage answer = r.getSasl();
        if (!sasl.isComplete()) {
          token = authenticator.evaluate(sasl, answer.getToken().toByteArray());
        }
        if (answer.getComplete()) {
          if (!sasl.isComplete()) {
            throw new IOException("Server " + address + " ended the SASL exchange before the client was done");
          }
          // Nothing else was sent yet: from here on, frames are sealed if privacy was negotiated.
          channel.eventLoop().submit(() -> SaslPrivacy.installIfNegotiated(channel, sasl)).syncUninterruptibly();
          keepOpen = true;
          return;
        }
        step = SaslMessage.newBuilder();
      }
      throw new IOException("SASL exchange with " + address + " did not end");
    } finally {
      if (!keepOpen) {
        try {
          sasl.dispose();
        } catch (SaslException e) {
          // Nothing more to do with a failed exchange; its failure is what the caller sees.
        }
      }
    }
  }

  private Response await(CompletableFuture<Response> f, int timeoutMs) throws IOException {
    try {
      return f.get(timeoutMs, java.util.concurrent.TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IOException("No answer from " + address + " during authentication in " + timeoutMs + " ms");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("Interrupted while authenticating to " + address);
    }
  }

  public InetSocketAddress address() {
    return address;
  }

  public boolean isOpen() {
    return channel.isActive();
  }

  /** A call id no other call of this process has. */
  public static long newCallId() {
    return NEXT_CALL_ID.getAndIncrement();
  }

  /**
   * Sends {@code request}; the future completes with the reply. A request without a call id gets a
   * new one; one with an id keeps it (a retry of the same call, which the server may recognise).
   */
  public CompletableFuture<Response> call(Request.Builder request) {
    long id = request.getCallId() != 0 ? request.getCallId() : newCallId();
    CompletableFuture<Response> future = new CompletableFuture<>();
    pending.put(id, future);
    if (!channel.isActive()) {
      fail(id, new IOException("Connection to " + address + " is closed"));
      return future;
    }
    ByteBuf frame;
    try {
      frame = Framing.encode(channel.alloc(), request.setCallId(id).build());
    } catch (IOException | RuntimeException e) {
      fail(id, new IOException("Could not encode call to " + address + ": " + e, e));
      return future;
    }
    outgoing.add(frame);
    if (drainScheduled.compareAndSet(false, true)) {
      try {
        channel.eventLoop().execute(drain);
      } catch (java.util.concurrent.RejectedExecutionException e) {
        fail(id, new IOException("Connection to " + address + " is shutting down", e));
      }
    }
    return future;
  }

  /** On the I/O thread: writes every queued frame, then flushes once. */
  private void drain() {
    drainScheduled.set(false);
    boolean wrote = false;
    for (ByteBuf frame; (frame = outgoing.poll()) != null; ) {
      if (!channel.isActive()) {
        frame.release();
        continue;
      }
      channel.write(frame, channel.voidPromise());
      wrote = true;
    }
    if (wrote) {
      channel.flush();
    }
    if (!channel.isActive()) {
      failAll(new IOException("Connection to " + address + " is closed"));
    }
  }

  /** Forgets a call whose caller gave up waiting. */
  public void abandon(long callId) {
    pending.remove(callId);
  }

  private void fail(long id, IOException e) {
    CompletableFuture<Response> f = pending.remove(id);
    if (f != null) {
      f.completeExceptionally(e);
    }
  }

  private void failAll(IOException e) {
    for (Long id : pending.keySet()) {
      fail(id, e);
    }
  }

  @Override
  public void close() {
    channel.close().awaitUninterruptibly();
    for (ByteBuf frame; (frame = outgoing.poll()) != null; ) {
      frame.release();
    }
    failAll(new IOException("Connection to " + address + " closed"));
  }

  private static final class ReplyHandler extends SimpleChannelInboundHandler<ByteBuf> {
    volatile RpcConnection connection;

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
      Response response;
      try {
        response = Response.parseFrom(Framing.input(frame));
      } catch (IOException e) {
        connection.failAll(new IOException("Malformed reply from " + connection.address + ": " + e.getMessage()));
        ctx.close();
        return;
      }
      CompletableFuture<Response> f = connection.pending.remove(response.getCallId());
      if (f != null) {
        f.complete(response);
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      if (connection != null) {
        connection.failAll(new IOException("Connection to " + connection.address + " was closed by the server"));
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      if (connection != null) {
        connection.failAll(new IOException("Connection to " + connection.address + " failed: " + cause, cause));
      }
      ctx.close();
    }
  }
}
