package org.indexfs.server.rpc;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many connections a server keeps (DESIGN §14; issue 31: 20,000 idle connections from one
 * address took every file descriptor of the process, and a fresh client, the embedded ZooKeeper and
 * HDFS all failed). A new connection over the total (HDFS: {@code ipc.server.max.connections}) or
 * over its client address's share is closed at once. And as HDFS's IPC server does
 * (Server.ConnectionManager), while more than {@code idleThreshold} connections are open those
 * idle for longer than {@code maxIdleMs} — nothing in flight, nothing received — are closed, the
 * longest idle first; clients reconnect when they need to.
 */
final class ConnectionLimits {
  /**
   * Connections of every server in this process: file descriptors are the process's, and {@code
   * local} mode runs several servers in one.
   */
  private static final AtomicInteger PROCESS_TOTAL = new AtomicInteger();

  /** What the idle scan asks of a connection. */
  interface Tracked {
    /** When it last received anything, or had a call answered (System.nanoTime). */
    long lastActiveNanos();

    /** True when no call of it is in flight. */
    boolean idle();

    void close();
  }

  private final int total;
  private final int perClient;
  private final int idleThreshold;
  private final long maxIdleNanos;
  private final ConcurrentHashMap<InetAddress, Integer> byClient = new ConcurrentHashMap<>();
  private final Set<Tracked> open = ConcurrentHashMap.newKeySet();

  /** {@code total} 0: half the process's file descriptor limit. */
  ConnectionLimits(int total, int perClient, int idleThreshold, long maxIdleMs) {
    this.total = total > 0 ? total : defaultTotal();
    this.perClient = perClient;
    this.idleThreshold = idleThreshold;
    this.maxIdleNanos = maxIdleMs * 1_000_000L;
  }

  /** Half the file descriptors this process may open (the rest: RocksDB files, the data tier, ZooKeeper). */
  static int defaultTotal() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
      return (int) Math.max(256, Math.min(Integer.MAX_VALUE, unix.getMaxFileDescriptorCount() / 2));
    }
    return 10_000;
  }

  int total() {
    return total;
  }

  /**
   * Counts a new connection from {@code client}: the reason it may not stay, or null (then {@link
   * #closed} must follow, once).
   */
  String admit(InetAddress client) {
    if (PROCESS_TOTAL.incrementAndGet() > total) {
      PROCESS_TOTAL.decrementAndGet();
      return "this process already holds its limit of " + total + " connections (indexfs.rpc.max-connections)";
    }
    String[] refusal = {null};
    byClient.compute(client, (address, n) -> {
      int now = n == null ? 0 : n;
      if (now >= perClient) {
        refusal[0] = address.getHostAddress() + " already holds its limit of " + perClient
            + " connections (indexfs.rpc.max-connections-per-client)";
        return n;
      }
      return now + 1;
    });
    if (refusal[0] != null) {
      PROCESS_TOTAL.decrementAndGet();
    }
    return refusal[0];
  }

  /** An admitted connection, for the idle scan. */
  void track(Tracked connection) {
    open.add(connection);
  }

  /** An admitted connection closed. */
  void closed(InetAddress client, Tracked connection) {
    if (connection != null) {
      open.remove(connection);
    }
    byClient.compute(client, (address, n) -> n == null || n <= 1 ? null : n - 1);
    PROCESS_TOTAL.decrementAndGet();
  }

  /** Connections open now from {@code client}. */
  int from(InetAddress client) {
    return byClient.getOrDefault(client, 0);
  }

  /**
   * While more than the idle threshold are open, closes those idle for longer than the limit,
   * longest idle first, until the threshold is reached. Returns how many it closed.
   */
  int closeIdle() {
    int excess = open.size() - idleThreshold;
    if (excess <= 0) {
      return 0;
    }
    long now = System.nanoTime();
    List<Tracked> idle = new ArrayList<>();
    for (Tracked c : open) {
      if (c.idle() && now - c.lastActiveNanos() > maxIdleNanos) {
        idle.add(c);
      }
    }
    idle.sort(Comparator.comparingLong(Tracked::lastActiveNanos));
    int closed = 0;
    for (Tracked c : idle) {
      if (closed >= excess) {
        break;
      }
      open.remove(c);
      c.close();
      closed++;
    }
    return closed;
  }

  /** How often to look for idle connections: HDFS scans every 10 s; a short limit is looked at sooner. */
  long scanIntervalMs() {
    return Math.max(50, Math.min(10_000, maxIdleNanos / 1_000_000 / 2));
  }
}
