package org.indexfs.server.store;

import java.nio.ByteBuffer;

/**
 * Where a change stands in a slot's replicated history (DESIGN §11): the epoch of the writer that
 * made it and its sequence number (1, 2, 3 ... across writers). Every replicated batch carries its
 * own position, so a store always knows how far into the history it is.
 */
public record LogPosition(long epoch, long seq) {
  /** A store no replicated change reached yet. */
  public static final LogPosition NONE = new LogPosition(0, 0);

  public byte[] encode() {
    return ByteBuffer.allocate(16).putLong(epoch).putLong(seq).array();
  }

  public static LogPosition decode(byte[] b) {
    ByteBuffer buf = ByteBuffer.wrap(b);
    return new LogPosition(buf.getLong(), buf.getLong());
  }

  @Override
  public String toString() {
    return seq + "@e" + epoch;
  }
}
