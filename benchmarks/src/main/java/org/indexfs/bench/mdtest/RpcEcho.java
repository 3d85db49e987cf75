package org.indexfs.bench.mdtest;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.indexfs.bench.ThreadCpu;
import org.indexfs.common.rpc.Framing;
import org.indexfs.common.rpc.Transport;
import org.indexfs.common.rpc.RpcConnection;
import org.indexfs.proto.Caller;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.FileType;
import org.indexfs.proto.GetFileStatusRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;

/**
 * The wire's share of the floor (DESIGN §10): a bare RPC through IndexFS's own framing and client
 * connection, answered on the server's I/O thread with no work behind it — a stat-sized request
 * and a file-status reply, the sizes of the calls mdtest makes. Same threads, same machine.
 */
public final class RpcEcho {
  /** Calls per second and the CPU each call cost on both sides. */
  public record Result(long calls, double seconds, long cpuNanos) {
    public double callsPerSecond() {
      return seconds > 0 ? calls / seconds : 0;
    }

    public double cpuMicrosPerCall() {
      return calls > 0 ? cpuNanos / 1000.0 / calls : 0;
    }
  }

  private RpcEcho() {}

  public static Result run(int threads, int callsPerThread, AtomicLong progress) throws IOException {
    Response reply = Response.newBuilder().setStatus(FileStatus.newBuilder().setName("f.12.345")
        .setType(FileType.FILE).setInodeId(1L << 40 | 123456).setPermission(0644).setOwner("bench")
        .setGroup("supergroup").setMtime(System.currentTimeMillis()).setAtime(System.currentTimeMillis())
        .setReplication(3).setBlockSize(128L << 20)).build();
    // The same transport as IndexFS's clients and servers (Transport), so the floor is theirs.
    EventLoopGroup boss = Transport.group(1, new DefaultThreadFactory("indexfs-echo-accept", true));
    EventLoopGroup workers = Transport.group(2, new DefaultThreadFactory("indexfs-echo-io", true));
    EventLoopGroup clientGroup = Transport.group(1, new DefaultThreadFactory("indexfs-client-echo", true));
    try {
      Channel server = new ServerBootstrap().group(boss, workers).channel(Transport.serverChannel(boss))
          .childOption(ChannelOption.TCP_NODELAY, true)
          .childHandler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
              Framing.install(ch.pipeline(), 1 << 20);
              ch.pipeline().addLast(new Echo(reply));
            }
          }).bind("127.0.0.1", 0).syncUninterruptibly().channel();
      InetSocketAddress address = (InetSocketAddress) server.localAddress();
      try (RpcConnection conn = RpcConnection.open(clientGroup, address, 1 << 20, 10_000)) {
        Caller caller = Caller.newBuilder().setUser("bench").addGroups("bench").setClientId("echo-client").build();
        ThreadCpu before = ThreadCpu.now();
        ThreadedPhase.Timing t = ThreadedPhase.run("rpc echo", threads, (thread, micros) -> {
          for (int i = 0; i < callsPerThread; i++) {
            long t0 = System.nanoTime();
            Request.Builder request = Request.newBuilder().setCaller(caller).setGetFileStatus(
                GetFileStatusRequest.newBuilder().setPath("/bench/r0/shared-dir/d1/d2/d3/shared/f." + thread + "." + i));
            Response r = conn.call(request).get(10, TimeUnit.SECONDS);
            if (r.getCallId() == 0) {
              throw new IOException("Echo lost its call id");
            }
            micros.recordValue(Math.max(1, (System.nanoTime() - t0) / 1000));
            progress.incrementAndGet();
          }
        });
        ThreadCpu.Sample cpu = ThreadCpu.now().since(before);
        return new Result((long) threads * callsPerThread, t.seconds(),
            t.workerCpuNanos() + cpu.serverNanos() + cpu.clientIoNanos());
      } finally {
        server.close().syncUninterruptibly();
      }
    } finally {
      clientGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
      workers.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
      boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  /** Answers every frame with the canned reply, written during the read and flushed once after it. */
  private static final class Echo extends ChannelInboundHandlerAdapter {
    private final Response reply;
    private boolean written;

    Echo(Response reply) {
      this.reply = reply;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws IOException {
      ByteBuf frame = (ByteBuf) msg;
      try {
        Request request = Request.parseFrom(Framing.input(frame));
        ctx.write(reply.toBuilder().setCallId(request.getCallId()).build(), ctx.voidPromise());
        written = true;
      } finally {
        frame.release();
      }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      if (written) {
        written = false;
        ctx.flush();
      }
    }
  }
}
