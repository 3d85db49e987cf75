package org.indexfs.server.rpc;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.WriteBufferWaterMark;
import java.net.InetAddress;
import org.indexfs.common.IndexFsConfig;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import org.indexfs.common.rpc.Framing;
import com.google.protobuf.ByteString;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;
import org.indexfs.common.rpc.SaslAuthenticator;
import org.indexfs.common.rpc.SaslPrivacy;
import org.indexfs.common.rpc.Transport;
import org.indexfs.proto.Code;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.call.ReadBatch;
import org.indexfs.proto.SaslMessage;
import org.indexfs.server.security.ConnectionUser;
import org.indexfs.server.security.KerberosTransport;
import org.indexfs.server.security.PeerSecret;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's Netty transport: length-prefixed protobuf frames, many calls in flight per
 * connection, replies in completion order (matched by call id). A malformed or oversized frame
 * closes only that connection, with the reason logged (throttled: {@link BadInputLog}). What one
 * client can make the server hold is bounded (DESIGN §14): calls in flight and unsent replies per
 * connection ({@link ConnectionBudget}: reading stops), partial frames per connection, per client
 * address and in total ({@link BufferBudget}), the time a started frame may take ({@link
 * BoundedFrameDecoder}: the connection is closed), and connections per client address and in total,
 * idle ones closed when there are many ({@link ConnectionLimits}).
 */
public final class RpcServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RpcServer.class);

  private final Dispatcher dispatcher;
  private final int maxFrameBytes;
  private final int idleSeconds;
  private final EventLoopGroup boss = Transport.group(1, new DefaultThreadFactory("indexfs-server-accept", true));
  private final EventLoopGroup workers;
  private final Limits limits;
  private final KerberosTransport kerberos;
  /** In simple mode: how peer servers prove themselves (the cluster secret); null with Kerberos. */
  private final PeerSecret peers;
  private final BufferBudget buffers;
  private final ConnectionLimits connections;
  private final BadInputLog badInput = new BadInputLog();
  private Channel serverChannel;

  /**
   * What one connection, one client address, and all together may make this server hold: calls in
   * flight per connection, the bytes of half-received large frames in total and per client, the
   * time a frame may take, connections in total (0: half the process's file descriptors) and per
   * client, and when idle connections are closed (HDFS's ipc.client.idlethreshold and
   * 2 × ipc.client.connection.maxidletime).
   */
  public record Limits(int inFlightPerConnection, long bufferedBytes, long bufferedBytesPerClient,
      long frameDeadlineMs, int maxConnections, int maxConnectionsPerClient, int idleThreshold, long maxIdleMs) {
    /** The limits {@code conf} sets (IndexFsConfig's indexfs.rpc.* keys). */
    public static Limits from(java.util.Map<String, String> conf) {
      return new Limits(IndexFsConfig.RPC_MAX_IN_FLIGHT.get(conf), IndexFsConfig.RPC_MAX_BUFFERED_BYTES.get(conf),
          IndexFsConfig.RPC_MAX_BUFFERED_BYTES_PER_CLIENT.get(conf), IndexFsConfig.RPC_FRAME_DEADLINE_MS.get(conf),
          IndexFsConfig.RPC_MAX_CONNECTIONS.get(conf), IndexFsConfig.RPC_MAX_CONNECTIONS_PER_CLIENT.get(conf),
          IndexFsConfig.RPC_IDLE_THRESHOLD.get(conf), IndexFsConfig.RPC_MAX_IDLE_MS.get(conf));
    }
  }

  public RpcServer(Dispatcher dispatcher, int maxFrameBytes, int idleSeconds, int ioThreads, int slot, Limits limits,
      KerberosTransport kerberos, PeerSecret peers) {
    this.kerberos = kerberos;
    this.peers = kerberos == null ? peers : null;
    this.dispatcher = dispatcher;
    this.limits = limits;
    this.workers = Transport.group(ioThreads, new DefaultThreadFactory("indexfs-server-io-" + slot, true));
    this.maxFrameBytes = maxFrameBytes;
    this.idleSeconds = idleSeconds;
    this.buffers = new BufferBudget(limits.bufferedBytes(), limits.bufferedBytesPerClient());
    this.connections = new ConnectionLimits(limits.maxConnections(), limits.maxConnectionsPerClient(),
        limits.idleThreshold(), limits.maxIdleMs());
  }

  /** Binds and returns the address actually bound (port 0 picks a free port). */
  public InetSocketAddress start(String host, int port) throws IOException {
    ServerBootstrap b = new ServerBootstrap()
        .group(boss, workers)
        .channel(Transport.serverChannel(boss))
        .childOption(ChannelOption.TCP_NODELAY, true)
        // Replies a client does not read stop the reading of its calls (ConnectionBudget).
        .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(256 * 1024, 1024 * 1024))
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            InetAddress client = ch.remoteAddress().getAddress();
            String refusal = connections.admit(client);
            if (refusal != null) {
              badInput.warn(BadInputLog.Kind.TOO_MANY_CONNECTIONS, ch.remoteAddress(), refusal);
              ch.close();
              return;
            }
            CallHandler calls = new CallHandler();
            connections.track(calls);
            ch.closeFuture().addListener(closed -> connections.closed(client, calls));
            // Reads only: a connection waiting for a slow reply is not idle, a silent peer is.
            ch.pipeline().addLast("idle", new IdleStateHandler(idleSeconds, 0, 0));
            Framing.install(ch.pipeline(), maxFrameBytes);
            ch.pipeline().replace("frameDecoder", "frameDecoder", new BoundedFrameDecoder(maxFrameBytes,
                limits.frameDeadlineMs(), buffers, client));
            ch.pipeline().addLast("calls", calls);
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
    long scan = connections.scanIntervalMs();
    boss.next().scheduleAtFixedRate(() -> {
      int closed = connections.closeIdle();
      if (closed > 0) {
        LOG.info("Closed {} connections idle for over {} ms: more than {} were open (indexfs.rpc.idle-threshold)",
            closed, limits.maxIdleMs(), limits.idleThreshold());
      }
    }, scan, scan, java.util.concurrent.TimeUnit.MILLISECONDS);
    InetSocketAddress bound = (InetSocketAddress) serverChannel.localAddress();
    LOG.info("Serving calls on {} ({} transport)", bound, serverChannel instanceof io.netty.channel.epoll.EpollServerSocketChannel
        ? "native epoll" : "Java NIO");
    return bound;
  }

  /**
   * Reads requests and hands each to the dispatcher with this connection's {@link Replies}; calls
   * that may run on this I/O thread answer during the read, and their replies leave with one
   * flush when the read ends.
   */
  private final class CallHandler extends ChannelInboundHandlerAdapter implements ConnectionLimits.Tracked {
    private Replies replies;
    /** The calls of this connection's current read (its I/O thread's, one at a time). */
    private final ReadBatch read = new ReadBatch();
    private volatile ConnectionBudget budget;
    private volatile Channel channel;
    private volatile long lastActive = System.nanoTime();
    private boolean closing;
    /** With Kerberos: the SASL exchange under way, then the user it authenticated. */
    private SaslServer sasl;
    private ConnectionUser authenticated;

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      channel = ctx.channel();
      budget = new ConnectionBudget(ctx.channel(), limits.inFlightPerConnection());
      replies = new Replies(ctx.channel(), budget);
    }

    @Override
    public long lastActiveNanos() {
      return lastActive;
    }

    @Override
    public boolean idle() {
      ConnectionBudget b = budget;
      return b == null || b.inFlight() == 0;
    }

    @Override
    public void close() {
      Channel c = channel;
      if (c != null) {
        c.close();
      }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      lastActive = System.nanoTime();
      ByteBuf frame = (ByteBuf) msg;
      Request request;
      try {
        request = Request.parseFrom(Framing.input(frame));
      } catch (IOException e) {
        badInput.warn(BadInputLog.Kind.MALFORMED, ctx.channel().remoteAddress(),
            frame.readableBytes() + " bytes: " + e.getMessage());
        ctx.close();
        return;
      } finally {
        frame.release();
      }
      if (request.getOpCase() == Request.OpCase.SASL) {
        authenticate(ctx, request);
        return;
      }
      if (kerberos != null && authenticated == null) {
        // As a Kerberized NameNode answers a client that did not authenticate.
        refuse(ctx, request, "SIMPLE authentication is not enabled.  Available:[KERBEROS]");
        return;
      }
      budget.started();
      dispatcher.readStarted(read);
      dispatcher.dispatch(request, ctx.channel().remoteAddress(), authenticated, read, replies::send);
    }

    /**
     * One step of the connection's SASL exchange (GSSAPI or a token with Kerberos; in simple mode a
     * peer server's DIGEST-MD5), answered here on the I/O thread.
     */
    private void authenticate(ChannelHandlerContext ctx, Request request) {
      if (kerberos == null && peers == null || authenticated != null) {
        refuse(ctx, request, authenticated == null ? "This server does not use Kerberos (hadoop.security.authentication=simple)"
            : "The connection is already authenticated");
        return;
      }
      SaslMessage step = request.getSasl();
      try {
        if (sasl == null) {
          sasl = kerberos != null ? kerberos.newServer(step.getMechanism()) : peers.newServer(step.getMechanism());
        }
        byte[] token = kerberos != null ? kerberos.as(() -> sasl.evaluateResponse(step.getToken().toByteArray()))
            : sasl.evaluateResponse(step.getToken().toByteArray());
        SaslMessage.Builder answer = SaslMessage.newBuilder().setToken(ByteString.copyFrom(token == null ? new byte[0] : token));
        if (sasl.isComplete()) {
          authenticated = kerberos != null ? kerberos.userOf(sasl) : peers.userOf(sasl);
          answer.setComplete(true).setUser(authenticated.user());
        }
        ctx.writeAndFlush(Response.newBuilder().setCallId(request.getCallId()).setCode(Code.OK).setSasl(answer).build());
        if (authenticated != null) {
          // The last step left in clear; everything after it is sealed if privacy was negotiated.
          SaslPrivacy.installIfNegotiated(ctx.channel(), sasl);
        }
      } catch (IOException | RuntimeException e) {
        badInput.warn(BadInputLog.Kind.AUTHENTICATION, ctx.channel().remoteAddress(), e.toString());
        closing = true;
        ctx.writeAndFlush(Dispatcher.error(request, Code.NOT_AUTHORIZED, "Authentication failed: " + e.getMessage()))
            .addListener(io.netty.channel.ChannelFutureListener.CLOSE);
      }
    }

    private void refuse(ChannelHandlerContext ctx, Request request, String why) {
      closing = true;
      ctx.writeAndFlush(Dispatcher.error(request, Code.NOT_AUTHORIZED, why))
          .addListener(io.netty.channel.ChannelFutureListener.CLOSE);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
      dispatcher.readComplete(read); // a read cut short by the close: its writes still get their sync
      if (sasl != null) {
        try {
          sasl.dispose();
        } catch (SaslException e) {
          LOG.debug("Disposing of a connection's SASL state: {}", e.toString());
        }
      }
      super.channelInactive(ctx);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      dispatcher.readComplete(read);
      replies.flushIfWritten();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
      budget.writabilityChanged();
      super.channelWritabilityChanged(ctx);
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
      dispatcher.readComplete(read);
      if (closing) {
        return; // what is left of a connection already refused (its remaining bytes, its reset)
      }
      closing = true;
      if (cause instanceof BoundedFrameDecoder.LimitExceeded limit) {
        badInput.warn(limit.kind, ctx.channel().remoteAddress(), limit.getMessage());
      } else if (cause instanceof TooLongFrameException) {
        badInput.warn(BadInputLog.Kind.OVERSIZED, ctx.channel().remoteAddress(), cause.getMessage());
      } else if (cause instanceof IOException) {
        LOG.debug("Connection from {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
      } else {
        badInput.warn(BadInputLog.Kind.FAILED, ctx.channel().remoteAddress(), cause.toString());
      }
      ctx.close();
    }
  }

  /** Bytes of half-received large frames this server holds now (at most the configured budget). */
  public long partialFrameBytes() {
    return buffers.held();
  }

  /** Connections this server holds now from {@code client}. */
  public int connectionsFrom(InetAddress client) {
    return connections.from(client);
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
