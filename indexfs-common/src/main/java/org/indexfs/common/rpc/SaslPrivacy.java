package org.indexfs.common.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslClient;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;

/**
 * {@code hadoop.rpc.protection=privacy} on a Kerberos connection (DESIGN §14): once the SASL
 * exchange settled on {@code auth-conf}, every frame's body is sealed with the exchange's security
 * layer (GSSAPI wrap: encrypted and integrity-protected) and framed again; frames are opened the
 * same way on arrival. Sits between the frame decoder and encoder, so the rest of the pipeline sees
 * plain frames. Both ends install it right after the exchange's last message.
 */
public final class SaslPrivacy extends ChannelDuplexHandler {
  /** The security layer of a completed exchange, on either side. */
  interface Layer {
    byte[] wrap(byte[] b) throws SaslException;

    byte[] unwrap(byte[] b) throws SaslException;
  }

  private final Layer layer;

  private SaslPrivacy(Layer layer) {
    this.layer = layer;
  }

  /** Installs privacy on {@code channel} if the client's exchange negotiated it (on its event loop). */
  static void installIfNegotiated(Channel channel, SaslClient sasl) {
    if ("auth-conf".equals(sasl.getNegotiatedProperty(Sasl.QOP))) {
      install(channel, new Layer() {
        public byte[] wrap(byte[] b) throws SaslException {
          return sasl.wrap(b, 0, b.length);
        }

        public byte[] unwrap(byte[] b) throws SaslException {
          return sasl.unwrap(b, 0, b.length);
        }
      });
    }
  }

  /** As above, for a server's side of the exchange; true when installed. */
  public static boolean installIfNegotiated(Channel channel, SaslServer sasl) {
    if (!"auth-conf".equals(sasl.getNegotiatedProperty(Sasl.QOP))) {
      return false;
    }
    install(channel, new Layer() {
      public byte[] wrap(byte[] b) throws SaslException {
        return sasl.wrap(b, 0, b.length);
      }

      public byte[] unwrap(byte[] b) throws SaslException {
        return sasl.unwrap(b, 0, b.length);
      }
    });
    return true;
  }

  private static void install(Channel channel, Layer layer) {
    channel.pipeline().addAfter("frameDecoder", "privacy", new SaslPrivacy(layer));
  }

  /** A decoded frame's body: open it. */
  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
    ByteBuf sealed = (ByteBuf) msg;
    byte[] plain;
    try {
      plain = layer.unwrap(ByteBufUtil.getBytes(sealed));
    } finally {
      sealed.release();
    }
    ctx.fireChannelRead(Unpooled.wrappedBuffer(plain));
  }

  /** An encoded frame (length, body): seal the body and frame it again. */
  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
    if (!(msg instanceof ByteBuf frame)) {
      ctx.write(msg, promise);
      return;
    }
    byte[] sealed;
    try {
      frame.skipBytes(Framing.LENGTH_BYTES);
      sealed = layer.wrap(ByteBufUtil.getBytes(frame));
    } finally {
      frame.release();
    }
    ByteBuf out = ctx.alloc().ioBuffer(Framing.LENGTH_BYTES + sealed.length);
    out.writeInt(sealed.length).writeBytes(sealed);
    ctx.write(out, promise);
  }
}
