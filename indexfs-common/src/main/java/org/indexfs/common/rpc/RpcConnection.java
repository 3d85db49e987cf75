package org.indexfs.common.rpc;

import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;

/**
 * One connection to one server, with many calls in flight: each call gets an id and a future,
 * and replies complete the futures in whatever order they arrive. A broken connection fails
 * every pending call with an IOException.
 */
public final class RpcConnection implements AutoCloseable {
  private final InetSocketAddress address;
  private final Channel channel;
  private final Map<Long, CompletableFuture<Response>> pending = new ConcurrentHashMap<>();
  private final AtomicLong nextCallId = new AtomicLong(1);

  private RpcConnection(InetSocketAddress address, Channel channel) {
    this.address = address;
    this.channel = channel;
  }

  public static RpcConnection open(EventLoopGroup group, InetSocketAddress address, int maxFrameBytes,
      int connectTimeoutMs) throws IOException {
    ReplyHandler handler = new ReplyHandler();
    Bootstrap b = new Bootstrap()
        .group(group)
        .channel(NioSocketChannel.class)
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
    return conn;
  }

  public InetSocketAddress address() {
    return address;
  }

  public boolean isOpen() {
    return channel.isActive();
  }

  /** Sends {@code request} (its call id is assigned here); the future completes with the reply. */
  public CompletableFuture<Response> call(Request.Builder request) {
    long id = nextCallId.getAndIncrement();
    CompletableFuture<Response> future = new CompletableFuture<>();
    pending.put(id, future);
    if (!channel.isActive()) {
      fail(id, new IOException("Connection to " + address + " is closed"));
      return future;
    }
    byte[] bytes = request.setCallId(id).build().toByteArray();
    channel.writeAndFlush(Unpooled.wrappedBuffer(bytes)).addListener(w -> {
      if (!w.isSuccess()) {
        fail(id, new IOException("Could not send call to " + address + ": " + w.cause(), w.cause()));
      }
    });
    return future;
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
    failAll(new IOException("Connection to " + address + " closed"));
  }

  private static final class ReplyHandler extends SimpleChannelInboundHandler<ByteBuf> {
    volatile RpcConnection connection;

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
      Response response;
      try {
        response = Response.parseFrom(ByteBufUtil.getBytes(frame));
      } catch (InvalidProtocolBufferException e) {
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
