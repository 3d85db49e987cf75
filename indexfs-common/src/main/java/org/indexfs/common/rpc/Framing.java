package org.indexfs.common.rpc;

import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;

/**
 * Frames on the wire: a 4-byte big-endian length, then one protobuf envelope. A frame longer than
 * the limit fails decoding (TooLongFrameException) and the connection is closed by its handler.
 * Server and client install exactly the same framing.
 */
public final class Framing {
  public static final int LENGTH_BYTES = 4;

  private Framing() {}

  public static void install(ChannelPipeline pipeline, int maxFrameBytes) {
    pipeline.addLast("frameDecoder",
        new LengthFieldBasedFrameDecoder(maxFrameBytes, 0, LENGTH_BYTES, 0, LENGTH_BYTES, true));
    pipeline.addLast("framePrepender", new LengthFieldPrepender(LENGTH_BYTES));
  }
}
