package org.indexfs.server.rpc;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import org.indexfs.common.rpc.Framing;
import org.indexfs.proto.Request;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's Netty transport: length-prefixed protobuf frames, many calls in flight per
 * connection, replies in completion order (matched by call id). A malformed or oversized frame
 * closes only that connection, with the reason logged.
 */
public final class RpcServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RpcServer.class);

  private final Dispatcher dispatcher;
  private final int maxFrameBytes;
  private final int idleSeconds;
  private final EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1,
      new DefaultThreadFactory("indexfs-server-accept", true), NioIoHandler.newFactory());
  private final EventLoopGroup workers;
  private Channel serverChannel;

  public RpcServer(Dispatcher dispatcher, int maxFrameBytes, int idleSeconds, int ioThreads, int slot) {
    this.dispatcher = dispatcher;
    this.workers = new MultiThreadIoEventLoopGroup(ioThreads, new DefaultThreadFactory("indexfs-server-io-" + slot, true),
        NioIoHandler.newFactory());
    this.maxFrameBytes = maxFrameBytes;
    this.idleSeconds = idleSeconds;
  }

  /** Binds and returns the address actually bound (port 0 picks a free port). */
  public InetSocketAddress start(String host, int port) throws IOException {
    ServerBootstrap b = new ServerBootstrap()
        .group(boss, workers)
        .channel(NioServerSocketChannel.class)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            // Reads only: a connection waiting for a slow reply is not idle, a silent peer is.
            ch.pipeline().addLast("idle", new IdleStateHandler(idleSeconds, 0, 0));
            Framing.install(ch.pipeline(), maxFrameBytes);
            ch.pipeline().addLast("calls", new CallHandler());
          }
        });
    try {
      serverChannel = b.bind(host, port).sync().channel();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted while binding " + host + ":" + port, e);
    } catch (RuntimeException e) {
      throw new IOException("Cannot bind " + host + ":" + port + ": " + e.getMessage(), e);
    }
    return (InetSocketAddress) serverChannel.localAddress();
  }

  /**
   * Reads requests and hands each to the dispatcher with this connection's {@link Replies}; calls
   * that may run on this I/O thread answer during the read, and their replies leave with one
   * flush when the read ends.
   */
  private final class CallHandler extends ChannelInboundHandlerAdapter {
    private Replies replies;

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      replies = new Replies(ctx.channel());
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf frame = (ByteBuf) msg;
      Request request;
      try {
        request = Request.parseFrom(Framing.input(frame));
      } catch (IOException e) {
        LOG.warn("Closing connection from {}: malformed request frame ({} bytes): {}",
            ctx.channel().remoteAddress(), frame.readableBytes(), e.getMessage());
        ctx.close();
        return;
      } finally {
        frame.release();
      }
      dispatcher.dispatch(request, ctx.channel().remoteAddress(), replies::send);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      replies.flushIfWritten();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
      if (event instanceof IdleStateEvent) {
        LOG.info("Closing connection from {}: nothing received for {} s", ctx.channel().remoteAddress(), idleSeconds);
        ctx.close();
      } else {
        super.userEventTriggered(ctx, event);
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      if (cause instanceof TooLongFrameException) {
        LOG.warn("Closing connection from {}: oversized frame: {}", ctx.channel().remoteAddress(), cause.getMessage());
      } else if (cause instanceof IOException) {
        LOG.debug("Connection from {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
      } else {
        LOG.warn("Closing connection from {} after an error", ctx.channel().remoteAddress(), cause);
      }
      ctx.close();
    }
  }

  @Override
  public void close() {
    if (serverChannel != null) {
      serverChannel.close().syncUninterruptibly();
    }
    boss.shutdownGracefully(0, 5, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    workers.shutdownGracefully(0, 5, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
  }
}
