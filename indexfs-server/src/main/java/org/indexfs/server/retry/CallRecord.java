package org.indexfs.server.retry;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.indexfs.proto.Response;

/**
 * A call's value in the calls column family: when it was written, and either the call's answer or
 * only the mark that its first batch was applied (the answer was not recorded yet).
 */
record CallRecord(long writtenAtMs, Response answer) {
  private static final byte APPLIED = 0;
  private static final byte ANSWERED = 1;

  static byte[] applied(long nowMs) {
    return ByteBuffer.allocate(9).put(APPLIED).putLong(nowMs).array();
  }

  static byte[] answered(long nowMs, Response answer) {
    byte[] r = answer.toByteArray();
    return ByteBuffer.allocate(9 + r.length).put(ANSWERED).putLong(nowMs).put(r).array();
  }

  static CallRecord decode(byte[] value) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(value);
    byte kind = b.get();
    long at = b.getLong();
    if (kind == APPLIED) {
      return new CallRecord(at, null);
    }
    try {
      return new CallRecord(at, Response.parseFrom(b));
    } catch (InvalidProtocolBufferException e) {
      throw new IOException("Undecodable retry cache record", e);
    }
  }

  /** Only the mark: the call changed something, its answer is not known. */
  boolean appliedOnly() {
    return answer == null;
  }

  static long writtenAt(byte[] value) {
    return ByteBuffer.wrap(value, 1, 8).getLong();
  }
}
