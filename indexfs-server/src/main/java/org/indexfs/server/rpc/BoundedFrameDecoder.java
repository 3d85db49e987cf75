package org.indexfs.server.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.net.InetAddress;
import org.indexfs.common.rpc.Framing;

/**
 * The server's side of {@link Framing} with limits on what a client can make it hold (DESIGN §14):
 * a frame over the size limit closes the connection at its length prefix; a frame must arrive
 * whole within a deadline of its first byte (a trickle no longer keeps a connection and its buffer
 * forever, the idle timer notwithstanding); and a partial frame larger than a small allowance
 * reserves its length from the server's {@link BufferBudget}, in total and for its client's address,
 * so many half-sent large frames cannot add up to more than the budget, nor one client's to more
 * than its share: the connection that would go over is closed.
 */
final class BoundedFrameDecoder extends ByteToMessageDecoder {
  /** Partial frames up to this size are held without a reservation (bounded per connection). */
  static final int SMALL_FRAME = 64 * 1024;

  /** Why a connection was closed by a limit (for the log and the tests). */
  static final class LimitExceeded extends DecoderException {
    final BadInputLog.Kind kind;

    LimitExceeded(BadInputLog.Kind kind, String message) {
      super(message);
      this.kind = kind;
    }
  }

  private final int maxFrame;
  private final long deadlineMs;
  private final BufferBudget budget;
  private final InetAddress client;
  private long reserved;
  private ScheduledFuture<?> deadline;

  /** {@code budget}: the server's, shared by every connection; {@code client}: this connection's peer address. */
  BoundedFrameDecoder(int maxFrame, long deadlineMs, BufferBudget budget, InetAddress client) {
    this.maxFrame = maxFrame;
    this.deadlineMs = deadlineMs;
    this.budget = budget;
    this.client = client;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    while (in.readableBytes() > 0) {
      if (in.readableBytes() < Framing.LENGTH_BYTES) {
        armDeadline(ctx);
        return;
      }
      int length = in.getInt(in.readerIndex());
      if (length < 0 || length > maxFrame - Framing.LENGTH_BYTES) {
        throw new TooLongFrameException("frame of " + Integer.toUnsignedString(length) + " bytes is over the limit of "
            + maxFrame);
      }
      if (in.readableBytes() < Framing.LENGTH_BYTES + length) {
        reserve(length);
        armDeadline(ctx);
        return;
      }
      in.skipBytes(Framing.LENGTH_BYTES);
      out.add(in.readRetainedSlice(length));
      frameDone();
    }
  }

  private void reserve(int length) {
    if (reserved > 0 || length <= SMALL_FRAME) {
      return;
    }
    String refusal = budget.reserve(client, length);
    if (refusal != null) {
      throw new LimitExceeded(BadInputLog.Kind.OVER_BUDGET, refusal);
    }
    reserved = length;
  }

  private void armDeadline(ChannelHandlerContext ctx) {
    if (deadline == null) {
      deadline = ctx.executor().schedule(() -> {
        deadline = null;
        ctx.fireExceptionCaught(new LimitExceeded(BadInputLog.Kind.TOO_SLOW,
            "a frame was started and not completed within " + deadlineMs + " ms"));
      }, deadlineMs, TimeUnit.MILLISECONDS);
    }
  }

  private void frameDone() {
    if (deadline != null) {
      deadline.cancel(false);
      deadline = null;
    }
    release();
  }

  private void release() {
    if (reserved > 0) {
      budget.release(client, reserved);
      reserved = 0;
    }
  }

  @Override
  protected void handlerRemoved0(ChannelHandlerContext ctx) {
    if (deadline != null) {
      deadline.cancel(false);
      deadline = null;
    }
    release();
  }
}
