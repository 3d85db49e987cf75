package org.indexfs.gateway;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * The ClientProtocol call being served, as Hadoop's RPC server authenticated and received it: the
 * end user (after the server's own Kerberos, token and {@code hadoop.proxyuser.*} checks), the
 * client's address, and the name the client gave the call for retry caches (its RPC client id and
 * call id, kept for every retry of the call, also through another gateway of the nameservice).
 */
record RpcCall(UserGroupInformation user, InetAddress address, byte[] clientId, int callId) {

  /** The call this handler thread serves. */
  static RpcCall current() throws IOException {
    UserGroupInformation user = Server.getRemoteUser();
    if (user == null) {
      // Only RPC handler threads serve calls; anything else has no caller to act for.
      throw new AccessControlException("No RPC call in progress: the IndexFS gateway acts only for RPC callers");
    }
    byte[] clientId = Server.getClientId();
    return new RpcCall(user, Server.getRemoteIp(), clientId == null ? new byte[0] : clientId, Server.getCallId());
  }

  String userName() {
    return user.getShortUserName();
  }

  /** The client's address as HDFS prints it in messages and audit lines. */
  String ip() {
    return address == null ? "" : address.getHostAddress();
  }

  /**
   * Numbers for the IndexFS calls this call makes, the same on every retry of it, also through
   * another gateway: the {@code n}-th call of operation {@code op} made for call
   * {@code (clientId, callId)} gets a 64-bit mix of the four, which no other call in flight shares by
   * chance (about 2^-64 a pair). Keyed by operation, not by order, so a retry that skips a lookup
   * its first try made (or makes one it did not) still names its mutations as the first try did.
   * Null when the client does not name its calls (no 16-byte client id), as Hadoop's retry cache
   * then ignores them too.
   */
  java.util.function.ToLongFunction<org.indexfs.proto.Request.OpCase> indexFsCallIds() {
    if (clientId.length != 16 || callId < 0) {
      return null;
    }
    ByteBuffer b = ByteBuffer.wrap(clientId);
    long seed = mix(b.getLong() ^ mix(b.getLong() ^ mix(callId)));
    java.util.Map<org.indexfs.proto.Request.OpCase, Integer> made = new java.util.EnumMap<>(
        org.indexfs.proto.Request.OpCase.class);
    return op -> {
      int n;
      synchronized (made) {
        n = made.merge(op, 1, Integer::sum);
      }
      long id = mix(seed + (op.getNumber() * 1024L + n) * 0x9E3779B97F4A7C15L);
      return id == 0 ? 1 : id;
    };
  }

  /** The client's RPC id, which names its calls for IndexFS's retry caches as for the NameNode's. */
  com.google.protobuf.ByteString retryClientId() {
    return com.google.protobuf.ByteString.copyFrom(clientId);
  }

  /** SplitMix64's finaliser: every input bit moves every output bit. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
