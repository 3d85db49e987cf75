package org.indexfs.server.retry;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.indexfs.proto.Response;

/**
 * A call's value in the calls column family: when it was written, and either the call's answer or
 * only the mark that its first batch was applied (the answer was not recorded yet) — a mark that
 * may carry the answer the call gives if that batch's change stands ({@link #landed}: a publish,
 * whose batch precedes its commit point and which recovery may undo).
 */
record CallRecord(long writtenAtMs, Response answer, boolean landedOnly) {
  private static final byte APPLIED = 0;
  private static final byte ANSWERED = 1;
  private static final byte LANDED = 2;

  static byte[] applied(long nowMs) {
    return ByteBuffer.allocate(9).put(APPLIED).putLong(nowMs).array();
  }

  static byte[] answered(long nowMs, Response answer) {
    byte[] r = answer.toByteArray();
    return ByteBuffer.allocate(9 + r.length).put(ANSWERED).putLong(nowMs).put(r).array();
  }

  /** The mark of a call whose answer is {@code answer} if its batch's change stands (no recovery undid it). */
  static byte[] landed(long nowMs, Response answer) {
    byte[] r = answer.toByteArray();
    return ByteBuffer.allocate(9 + r.length).put(LANDED).putLong(nowMs).put(r).array();
  }

  static CallRecord decode(byte[] value) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(value);
    byte kind = b.get();
    long at = b.getLong();
    if (kind == APPLIED) {
      return new CallRecord(at, null, false);
    }
    try {
      return new CallRecord(at, Response.parseFrom(b), kind == LANDED);
    } catch (InvalidProtocolBufferException e) {
      throw new IOException("Undecodable retry cache record", e);
    }
  }

  /** Only the mark: the call changed something, its answer is not known. */
  boolean appliedOnly() {
    return answer == null || landedOnly;
  }

  /** The answer a landed mark carries (null: none); read by {@link AppliedAnswers}. */
  Response landedAnswer() {
    return landedOnly ? answer : null;
  }

  static long writtenAt(byte[] value) {
    return ByteBuffer.wrap(value, 1, 8).getLong();
  }
}
