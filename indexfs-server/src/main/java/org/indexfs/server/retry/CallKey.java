package org.indexfs.server.retry;

import com.google.protobuf.ByteString;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import org.indexfs.proto.Request;

/**
 * Names one call of one client across its retries (Hadoop's RetryCache key): the client's random
 * {@code rpc_client_id} and the call's {@code call_id}, which the client keeps for every try.
 */
public record CallKey(ByteString clientId, long callId) {
  private static final String TXID_PREFIX = "call-";

  /** The key of {@code request}, or null when its client does not name its calls. */
  public static CallKey of(Request request) {
    if (request.getRpcClientId().isEmpty() || request.getCallId() == 0) {
      return null;
    }
    return new CallKey(request.getRpcClientId(), request.getCallId());
  }

  /** The record's key in the calls column family. */
  public byte[] encode() {
    return ByteBuffer.allocate(clientId.size() + 8).put(clientId.asReadOnlyByteBuffer()).putLong(callId).array();
  }

  static CallKey decode(byte[] key) {
    return new CallKey(ByteString.copyFrom(key, 0, key.length - 8), ByteBuffer.wrap(key, key.length - 8, 8).getLong());
  }

  /**
   * A new transaction id for a cross-slot rename made by this call: {@code call-<client>-<call>-<n>},
   * so a retry finds the call's open transaction ({@link #ownsTxid}); each try gets its own, since a
   * destination never lands a transaction once it was rolled back.
   */
  public String newTxid() {
    return txidPrefix() + java.util.concurrent.ThreadLocalRandom.current().nextInt(Integer.MAX_VALUE);
  }

  private String txidPrefix() {
    return TXID_PREFIX + HexFormat.of().formatHex(clientId.toByteArray()) + "-" + callId + "-";
  }

  public boolean ownsTxid(String txid) {
    return txid.startsWith(txidPrefix());
  }

  /** The call whose rename transaction this is, or null (a rename of no named call). */
  public static CallKey ofTxid(String txid) {
    if (!txid.startsWith(TXID_PREFIX)) {
      return null;
    }
    String[] parts = txid.substring(TXID_PREFIX.length()).split("-");
    if (parts.length != 3) {
      return null;
    }
    return new CallKey(ByteString.copyFrom(HexFormat.of().parseHex(parts[0])), Long.parseLong(parts[1]));
  }
}
