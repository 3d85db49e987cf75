package org.indexfs.common.rpc;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.util.concurrent.ThreadFactory;

/**
 * Which Netty transport clients and servers use: the native epoll transport where it loads (Linux
 * on x86-64 or aarch64, with Netty's native library on the class path), Java NIO anywhere else. The
 * native one skips the JDK selector's bookkeeping on every wake-up and writes with one native
 * writev; {@code -Dio.netty.transport.noNative=true} forces NIO. A connection's channel type follows
 * the event loop group it is opened on, so a caller's own NIO group keeps working.
 */
public final class Transport {
  private Transport() {}

  /** True when new groups use native epoll. */
  public static boolean nativeEpoll() {
    return Epoll.isAvailable();
  }

  /** A group of {@code threads} event loops of the best transport here. */
  public static EventLoopGroup group(int threads, ThreadFactory threadFactory) {
    IoHandlerFactory io = nativeEpoll() ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    return new MultiThreadIoEventLoopGroup(threads, threadFactory, io);
  }

  private static boolean epoll(EventLoopGroup group) {
    return group instanceof IoEventLoopGroup g && g.isIoType(EpollIoHandler.class);
  }

  /** The client channel type that runs on {@code group}'s loops. */
  public static Class<? extends SocketChannel> socketChannel(EventLoopGroup group) {
    return epoll(group) ? EpollSocketChannel.class : NioSocketChannel.class;
  }

  /** The listening channel type that runs on {@code group}'s loops. */
  public static Class<? extends ServerChannel> serverChannel(EventLoopGroup group) {
    return epoll(group) ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
  }

  /** For logs and reports: "epoll" or "nio". */
  public static String name() {
    return nativeEpoll() ? "epoll" : "nio";
  }
}
