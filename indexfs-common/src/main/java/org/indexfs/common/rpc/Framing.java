package org.indexfs.common.rpc;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.MessageLite;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.MessageToByteEncoder;
import java.io.IOException;

/**
 * Frames on the wire: a 4-byte big-endian length, then one protobuf envelope. A frame longer than
 * the limit fails decoding (TooLongFrameException) and the connection is closed by its handler.
 * Server and client install exactly the same framing.
 *
 * <p>Messages are written straight into one pooled buffer, length first ({@link #encode}), and
 * read straight from the frame's buffer ({@link #input}): no intermediate byte arrays either way.
 * A {@link MessageLite} written to the channel is encoded by the pipeline; an already encoded
 * {@link ByteBuf} passes through as it is.
 */
public final class Framing {
  public static final int LENGTH_BYTES = 4;

  private Framing() {}

  public static void install(ChannelPipeline pipeline, int maxFrameBytes) {
    pipeline.addLast("frameDecoder",
        new LengthFieldBasedFrameDecoder(maxFrameBytes, 0, LENGTH_BYTES, 0, LENGTH_BYTES, true));
    pipeline.addLast("frameEncoder", ENCODER);
  }

  private static final Encoder ENCODER = new Encoder();

  @ChannelHandler.Sharable
  private static final class Encoder extends MessageToByteEncoder<MessageLite> {
    Encoder() {
      super(MessageLite.class, true);
    }

    @Override
    protected ByteBuf allocateBuffer(ChannelHandlerContext ctx, MessageLite msg, boolean preferDirect) {
      return ctx.alloc().ioBuffer(LENGTH_BYTES + msg.getSerializedSize());
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, MessageLite msg, ByteBuf out) throws IOException {
      writeFrame(msg, out);
    }
  }

  /** {@code message} as one frame (length and body) in a pooled buffer the caller owns. */
  public static ByteBuf encode(ByteBufAllocator alloc, MessageLite message) throws IOException {
    ByteBuf out = alloc.ioBuffer(LENGTH_BYTES + message.getSerializedSize());
    try {
      writeFrame(message, out);
    } catch (IOException | RuntimeException e) {
      out.release();
      throw e;
    }
    return out;
  }

  private static void writeFrame(MessageLite message, ByteBuf out) throws IOException {
    int size = message.getSerializedSize();
    out.writeInt(size);
    int at = out.writerIndex();
    out.ensureWritable(size);
    CodedOutputStream coded = CodedOutputStream.newInstance(out.nioBuffer(at, size));
    message.writeTo(coded);
    coded.checkNoSpaceLeft();
    out.writerIndex(at + size);
  }

  /** A reader over a decoded frame's bytes, without copying them (valid until the frame is released). */
  public static CodedInputStream input(ByteBuf frame) {
    if (frame.nioBufferCount() == 1) {
      return CodedInputStream.newInstance(frame.nioBuffer());
    }
    byte[] copy = new byte[frame.readableBytes()];
    frame.getBytes(frame.readerIndex(), copy);
    return CodedInputStream.newInstance(copy);
  }
}
