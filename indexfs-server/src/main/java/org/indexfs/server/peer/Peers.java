package org.indexfs.server.peer;

import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.curator.framework.CuratorFramework;
import org.indexfs.common.ClusterPaths;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.rpc.RpcConnection;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.security.ServerZooKeeper;

/**
 * This server's calls to the servers of other slots (placing a directory's partition, sealing it
 * for rmdir, cross-slot renames). Calls go as the superuser, found through the same ZooKeeper
 * slot registry clients use; one pipelined connection per slot, reopened after a failure. Every
 * connection first proves this process is a server (Kerberos, or the cluster secret in simple mode).
 */
public final class Peers implements AutoCloseable {
  private final int slot;
  private final Caller identity;
  private final int maxFrameBytes;
  private final long timeoutMs;
  private final EventLoopGroup group;
  private final Map<Integer, RpcConnection> connections = new HashMap<>();
  private volatile CuratorFramework curator;
  private volatile ServerZooKeeper zk;
  private volatile String cluster;
  private volatile int slotCount = 1;

  private final org.indexfs.common.rpc.SaslAuthenticator authenticator;

  /** {@code authenticator}: how this server proves itself to its peers (Kerberos, or the cluster secret). */
  public Peers(int slot, String superuser, int maxFrameBytes, long timeoutMs,
      org.indexfs.common.rpc.SaslAuthenticator authenticator) {
    this.authenticator = authenticator;
    this.slot = slot;
    this.identity = Caller.newBuilder().setUser(superuser).setClientId("indexfs-slot-" + slot).build();
    this.maxFrameBytes = maxFrameBytes;
    this.timeoutMs = timeoutMs;
    this.group = org.indexfs.common.rpc.Transport.group(1, new DefaultThreadFactory("indexfs-peer-" + slot, true));
  }

  /** Joins the registry once this server holds its slot; {@code zk} says which records the servers wrote. */
  public void attach(CuratorFramework curator, ServerZooKeeper zk, String cluster, int slotCount) {
    this.cluster = cluster;
    this.slotCount = slotCount;
    this.zk = zk;
    this.curator = curator;
  }

  public int slot() {
    return slot;
  }

  public int slotCount() {
    return slotCount;
  }

  /** The largest frame a call or its reply may be (what a peer's answer must fit in). */
  public int maxFrameBytes() {
    return maxFrameBytes;
  }

  public CuratorFramework curator() {
    return curator;
  }

  public String cluster() {
    return cluster;
  }

  /** Calls the server of {@code target}; a non-OK answer is thrown as its {@link IndexFsException}. */
  public Response call(int target, Request.Builder request) throws IOException {
    Response response = send(target, request);
    if (response.getCode() != Code.OK) {
      throw new IndexFsException(response.getCode(), "slot " + target + ": " + response.getMessage());
    }
    return response;
  }

  /**
   * As {@link #call}, but a slot that ZooKeeper shows without a server and without a standby to
   * take it over fails the call at once instead of after the failover wait (the PREPARE of a split
   * publish: the client's call waits on it, and a slot that is away gains nothing from waiting).
   */
  public Response callUnlessDown(int target, Request.Builder request) throws IOException {
    Response response = send(target, request, true);
    if (response.getCode() != Code.OK) {
      throw new IndexFsException(response.getCode(), "slot " + target + ": " + response.getMessage());
    }
    return response;
  }

  /** True when the connection attempt itself was refused (nothing listens at the address). */
  private static boolean refused(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.net.ConnectException) {
        return true;
      }
    }
    return false;
  }

  /** True when ZooKeeper shows no standby of {@code target} (false when it cannot tell). */
  private boolean noStandby(int target) {
    if (curator == null) {
      return false;
    }
    try {
      org.apache.zookeeper.data.Stat standbys = curator.checkExists().forPath(ClusterPaths.standbys(cluster, target));
      return standbys == null || standbys.getNumChildren() == 0;
    } catch (Exception e) {
      return false;
    }
  }

  /** True when ZooKeeper shows no server of {@code target} and no standby of it: waiting would not bring one. */
  boolean knownDown(int target) {
    if (curator == null) {
      return false;
    }
    try {
      if (curator.checkExists().forPath(ClusterPaths.slot(cluster, target)) != null) {
        return false;
      }
    } catch (Exception e) {
      return false; // ZooKeeper itself unsure: wait as usual
    }
    return noStandby(target);
  }

  /** How long a call keeps trying a slot that is unreachable or failing over (DESIGN §11). */
  private static final long FAILOVER_WAIT_MS = 30_000;

  /**
   * Calls the server of {@code target} and returns its answer, whatever its code. A slot that is
   * unreachable, not served right now or busy is tried again with backoff for a while (its standby
   * may be taking over): every call between servers is idempotent (partition records by directory,
   * renames by transaction id).
   */
  public Response send(int target, Request.Builder request) throws IOException {
    return send(target, request, false);
  }

  private Response send(int target, Request.Builder request, boolean unlessDown) throws IOException {
    org.indexfs.server.Blocking.check("call to slot " + target);
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FAILOVER_WAIT_MS);
    for (int attempt = 0; ; attempt++) {
      Response response;
      try {
        response = sendOnce(target, request);
      } catch (InterruptedIOException e) {
        // Interrupted, or timed out: a call that already waited its whole timeout is not repeated.
        throw e;
      } catch (IndexFsException refused) {
        // Refused while connecting (authentication): trying again would meet the same answer.
        if (!passing(refused.code()) || System.nanoTime() > deadline) {
          throw refused;
        }
        pause(attempt);
        continue;
      } catch (IOException unreachable) {
        if (System.nanoTime() > deadline) {
          throw unreachable;
        }
        if (unlessDown && knownDown(target)) {
          throw new IOException("Slot " + target + " has no live server and no standby (ZooKeeper): " + unreachable.getMessage(),
              unreachable);
        }
        if (unlessDown && refused(unreachable) && noStandby(target)) {
          // Killed, its registration not yet expired: nobody listens at its address, and no standby
          // will take the slot over when the session ends.
          throw new IOException("Slot " + target + "'s registered server refuses connections and it has no standby: "
              + unreachable.getMessage(), unreachable);
        }
        pause(attempt);
        continue;
      }
      Code code = response.getCode();
      if (!passing(code) || System.nanoTime() > deadline) {
        return response;
      }
      pause(attempt);
    }
  }

  private static boolean passing(Code code) {
    return code == Code.NOT_SERVING || code == Code.WRONG_SERVER || code == Code.SERVER_BUSY;
  }

  private static void pause(int attempt) throws InterruptedIOException {
    try {
      Thread.sleep(Math.min(2_000, 100L << Math.min(attempt, 5)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted waiting to call a slot again");
    }
  }

  private Response sendOnce(int target, Request.Builder request) throws IOException {
    request.setCaller(identity);
    if (cluster != null) {
      // A stale address never reaches another slot's server: it answers WRONG_SERVER.
      request.setTarget(cluster + "/" + target);
    }
    RpcConnection conn = connection(target);
    Response response;
    try {
      response = conn.call(request).get(timeoutMs, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted calling slot " + target);
    } catch (TimeoutException e) {
      conn.abandon(request.getCallId());
      drop(target, conn);
      throw new SocketTimeoutException(request.getOpCase() + " to slot " + target + " timed out after " + timeoutMs + " ms");
    } catch (ExecutionException e) {
      drop(target, conn);
      throw new IOException("Call to slot " + target + " failed: " + e.getCause(), e.getCause());
    }
    if (response.getCode() == Code.NOT_SERVING || response.getCode() == Code.WRONG_SERVER) {
      // That process does not serve the slot (now): the next call looks its owner up again.
      drop(target, conn);
    }
    return response;
  }

  private synchronized void drop(int target, RpcConnection conn) {
    if (connections.remove(target, conn)) {
      conn.close();
    }
  }

  private synchronized RpcConnection connection(int target) throws IOException {
    RpcConnection c = connections.get(target);
    if (c != null && c.isOpen()) {
      return c;
    }
    if (c != null) {
      c.close();
    }
    c = RpcConnection.open(group, discover(target), maxFrameBytes, (int) Math.min(timeoutMs, 30_000), authenticator);
    connections.put(target, c);
    return c;
  }

  private InetSocketAddress discover(int target) throws IOException {
    if (curator == null) {
      throw new IOException("Slot " + slot + " is not registered yet; cannot reach slot " + target);
    }
    String path = ClusterPaths.slot(cluster, target);
    try {
      byte[] published = curator.getData().forPath(path);
      try {
        // A slot record anyone but the servers could have written would send this server's calls elsewhere.
        zk.checkWrittenByServers(curator, path);
      } catch (IOException untrusted) {
        throw new IndexFsException(Code.NOT_AUTHORIZED, untrusted.getMessage()); // not retried
      }
      return ClusterPaths.address(published);
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("No server registered for slot " + target + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    synchronized (this) {
      connections.values().forEach(RpcConnection::close);
      connections.clear();
    }
    group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
