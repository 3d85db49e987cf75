package org.indexfs.common.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.GetFileStatusRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.junit.jupiter.api.Test;

/**
 * The transport choice: native epoll on the Linux machines Netty ships a library for (so a build
 * that loses the native jar from the class path fails here, not silently slower), NIO for a
 * caller's own NIO group, and calls answered across every pairing of the two.
 */
class TransportTest {
  @Test
  void linuxOnX86OrArmGetsNativeEpoll() {
    String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch");
    boolean shipped = os.contains("linux") && (arch.equals("amd64") || arch.equals("aarch64"));
    boolean forcedOff = Boolean.getBoolean("io.netty.transport.noNative");
    assertEquals(shipped && !forcedOff, Transport.nativeEpoll(), os + "/" + arch);
    assertEquals(Transport.nativeEpoll() ? "epoll" : "nio", Transport.name());
  }

  @Test
  void callsAreAnsweredOverEitherTransportOnEitherSide() throws Exception {
    EventLoopGroup best = Transport.group(1, new DefaultThreadFactory("transport-test-best", true));
    EventLoopGroup nio = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    try {
      assertEquals(NioSocketChannel.class, Transport.socketChannel(nio));
      assertEquals(Transport.nativeEpoll() ? EpollSocketChannel.class : NioSocketChannel.class,
          Transport.socketChannel(best));
      assertEquals(Transport.nativeEpoll(), Transport.serverChannel(best) == EpollServerSocketChannel.class);
      for (EventLoopGroup serverSide : new EventLoopGroup[] {best, nio}) {
        Channel server = echo(serverSide);
        try {
          InetSocketAddress address = (InetSocketAddress) server.localAddress();
          for (EventLoopGroup clientSide : new EventLoopGroup[] {best, nio}) {
            try (RpcConnection conn = RpcConnection.open(clientSide, address, 1 << 20, 10_000)) {
              for (int i = 0; i < 100; i++) {
                String path = "/t/f" + i;
                Response r = conn.call(Request.newBuilder()
                    .setGetFileStatus(GetFileStatusRequest.newBuilder().setPath(path))).get(10, TimeUnit.SECONDS);
                assertEquals(path, r.getStatus().getName());
                assertTrue(r.getCallId() != 0);
              }
            }
          }
        } finally {
          server.close().syncUninterruptibly();
        }
      }
      // A closed connection fails its calls with an IOException, whichever the transport.
      Channel server = echo(best);
      RpcConnection conn = RpcConnection.open(best, (InetSocketAddress) server.localAddress(), 1 << 20, 10_000);
      server.close().syncUninterruptibly();
      conn.close();
      assertFalse(conn.isOpen());
      try {
        conn.call(Request.newBuilder().setGetFileStatus(GetFileStatusRequest.newBuilder().setPath("/x")))
            .get(10, TimeUnit.SECONDS);
        throw new AssertionError("a call on a closed connection was answered");
      } catch (java.util.concurrent.ExecutionException e) {
        assertTrue(e.getCause() instanceof IOException, String.valueOf(e.getCause()));
      }
    } finally {
      best.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
      nio.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  /** A server on {@code group} that answers each call with a status named by the call's path. */
  private static Channel echo(EventLoopGroup group) {
    return new ServerBootstrap().group(group).channel(Transport.serverChannel(group))
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            Framing.install(ch.pipeline(), 1 << 20);
            ch.pipeline().addLast(new SimpleChannelInboundHandler<ByteBuf>() {
              @Override
              protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) throws IOException {
                Request request = Request.parseFrom(Framing.input(frame));
                ctx.writeAndFlush(Response.newBuilder().setCallId(request.getCallId()).setStatus(
                    FileStatus.newBuilder().setName(request.getGetFileStatus().getPath())).build());
              }
            });
          }
        }).bind("127.0.0.1", 0).syncUninterruptibly().channel();
  }
}
