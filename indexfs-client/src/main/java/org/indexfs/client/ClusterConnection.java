package org.indexfs.client;

import com.google.protobuf.ByteString;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.indexfs.client.cache.ResolutionCache;
import org.indexfs.common.ClusterPaths;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.rpc.RpcConnection;
import org.indexfs.common.rpc.SaslAuthenticator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A process's link to one cluster: the ZooKeeper session used to discover servers and one
 * pipelined connection per server. Shared by every {@link IndexFsClient} of that cluster in the
 * process (Hadoop creates a FileSystem per user) and closed when the last one releases it.
 *
 * <p>Opening it does not wait for ZooKeeper: the session, and the watch on slot ownership, come up
 * in the background while the first calls use the slot map this user's last client saw
 * ({@link SlotDirectory}). Closing it does not wait either.
 */
public final class ClusterConnection implements AutoCloseable {
  static {
    // Netty 4.2 registers JFR events for its buffer allocator at the first allocation: JFR's
    // metadata repository then costs a fresh client 60-70 ms before its first call (profiled, wall
    // clock). Nobody here reads those events; an explicit -Dio.netty.jfr.enabled=true still wins.
    if (System.getProperty("io.netty.jfr.enabled") == null) {
      System.setProperty("io.netty.jfr.enabled", "false");
    }
  }

  private static final Map<String, ClusterConnection> SHARED = new HashMap<>();
  private static final Logger LOG = LoggerFactory.getLogger(ClusterConnection.class);

  private final String key;
  private final String cluster;
  private final ZooKeeperSession session;
  private final EventLoopGroup group;
  private final int maxFrameBytes;
  private final int connectTimeoutMs;
  /** With Kerberos: how this process's connections prove who opened them (null: simple). */
  private volatile SaslAuthenticator authenticator;
  /**
   * Connections per server for listings ({@code indexfs.client.list-connections}), each on its own
   * event loop here and (accepted in turn) there: a server answers a listing page on the I/O thread
   * of its connection, and this process decodes replies on the connection's event loop, so with one
   * connection one thread on each side is the serial stage of every listing (profiled: one server
   * I/O thread near a full core while 16 threads list). Caller threads take lanes in turn as they
   * first list, so a single-threaded client (a shell) opens one connection. Every other call takes
   * lane 0: spreading small calls costs the batching of replies per flush (measured: async creates
   * ~25 % and stats ~20 % more server CPU each over two connections).
   */
  private volatile int lanes = IndexFsConfig.CLIENT_LIST_CONNECTIONS.defaultValue();
  /** Lane slots per server in {@link #connections}: the most {@link #listConnections} allows. */
  private static final int MAX_LANES = 16;
  private final java.util.concurrent.atomic.AtomicInteger nextLane = new java.util.concurrent.atomic.AtomicInteger();
  /** A caller thread's turn among those that listed through this connection (the first: lane 0). */
  private final ThreadLocal<Integer> lane = ThreadLocal.withInitial(nextLane::getAndIncrement);
  /** By {@code slot * MAX_LANES + lane}. */
  private final Map<Integer, RpcConnection> connections = new ConcurrentHashMap<>();
  private final ResolutionCache resolutions;
  private final SlotDirectory directory;
  private volatile CuratorCache slotWatch;
  /** Open once the slot watch's first reads have all been answered. */
  private final CountDownLatch slotWatchBuilt = new CountDownLatch(1);
  private volatile boolean closing;
  /** Names this connection's calls for the servers' retry caches (Hadoop's RPC clientId). */
  private final ByteString rpcClientId = randomId();
  private int references;
  /** How long this shared connection outlives its last user (the first acquirer's setting). */
  private long lingerMs;

  private ClusterConnection(String key, String zkQuorum, String cluster, int maxFrameBytes, int connectTimeoutMs,
      int cacheEntries, String serversId) {
    this.key = key;
    this.cluster = cluster;
    this.maxFrameBytes = maxFrameBytes;
    this.connectTimeoutMs = connectTimeoutMs;
    this.resolutions = new ResolutionCache(cacheEntries, System::nanoTime);
    // Two loops: calls on one connection, listings spread over more (a loop starts its thread on first use).
    group = org.indexfs.common.rpc.Transport.group(2, new DefaultThreadFactory("indexfs-client", true));
    // The session comes up later on a thread of its own, so its set-up does not delay the first call.
    // Slot ownership changes (a server restarted, or another took the slot over): drop the old
    // connection at once, so the next call to that slot finds the new owner.
    session = new ZooKeeperSession(zkQuorum, connectTimeoutMs, this::watchSlots);
    directory = new SlotDirectory(session, zkQuorum, cluster, connectTimeoutMs, serversId);
    session.start(ZOOKEEPER_START_DELAY_MS);
  }

  /**
   * How long a new client goes on the remembered slot map alone before it starts its ZooKeeper
   * session (anything that needs the session starts it at once). Building one costs a fresh JVM
   * ~100 ms of CPU beside the first call (ZooKeeper's client config initializes the JVM's TLS
   * context, reading every CA certificate), which a {@code hadoop fs} command on two cores paid in
   * wall time: fresh {@code FsShell -ls}, 6 rounds alternating, 787–947 ms at once vs 685–784 ms
   * delayed (HDFS: 750–831 ms). A long-running client has its slot watch a second later; until
   * then a moved slot is found as before the watch existed: the old address refuses or answers
   * WRONG_SERVER, and the client looks the slot up.
   */
  static final long ZOOKEEPER_START_DELAY_MS = 1000;

  private void watchSlots(CuratorFramework curator) {
    // Curator's default handler logs every failed background read at ERROR with its stack trace;
    // one in flight when the session closes at exit would end a `hadoop fs` command on stderr.
    CuratorCache watch = CuratorCache.builder(curator, ClusterPaths.slots(cluster))
        .withExceptionHandler(this::watchFailed).build();
    watch.listenable().addListener(CuratorCacheListener.builder()
        .forCreates(node -> learn(curator, node, node.getData()))
        .forChanges((before, after) -> {
          learn(curator, after, after.getData());
          forget(after);
        })
        .forDeletes(node -> {
          learn(curator, node, null);
          forget(node);
        })
        .forInitialized(slotWatchBuilt::countDown)
        .build());
    watch.start();
    slotWatch = watch;
  }

  private void watchFailed(Exception e) {
    if (closing) {
      LOG.debug("Slot watch stopped while closing: {}", e.toString());
    } else {
      LOG.warn("Watching slot ownership failed: {}", e.toString());
    }
  }

  private static int slotOf(ChildData node) {
    String name = node.getPath().substring(node.getPath().lastIndexOf('/') + 1);
    try {
      return Integer.parseInt(name);
    } catch (NumberFormatException notASlot) {
      return -1; // the /slots node itself
    }
  }

  /** On Curator's own thread (never ZooKeeper's event thread): it may ask ZooKeeper whose the slot map is. */
  private void learn(CuratorFramework curator, ChildData node, byte[] published) {
    int slot = slotOf(node);
    if (slot >= 0) {
      directory.update(curator, slot, published);
    }
  }

  private void forget(ChildData node) {
    int slot = slotOf(node);
    if (slot >= 0) {
      forget(slot);
    }
  }

  /** Closes the connection to {@code slot}, if any: its owner changed. */
  private void forget(int slot) {
    for (int lane = 0; lane < MAX_LANES; lane++) {
      RpcConnection c = connections.remove(slot * MAX_LANES + lane);
      if (c != null) {
        c.close();
      }
    }
  }

  /** Open connections to {@code slot} (tests of the listing lanes). */
  int openConnections(int slot) {
    int n = 0;
    for (int lane = 0; lane < MAX_LANES; lane++) {
      RpcConnection c = connections.get(slot * MAX_LANES + lane);
      n += c != null && c.isOpen() ? 1 : 0;
    }
    return n;
  }

  /** True while this process holds a connection to {@code slot} (tests of the slot watch). */
  boolean connectedTo(int slot) {
    for (int lane = 0; lane < MAX_LANES; lane++) {
      RpcConnection c = connections.get(slot * MAX_LANES + lane);
      if (c != null && c.isOpen()) {
        return true;
      }
    }
    return false;
  }

  /** Joins (or opens) the process-wide connection to {@code cluster}. */
  public static ClusterConnection acquire(String zkQuorum, String cluster, int maxFrameBytes, int connectTimeoutMs)
      throws IOException {
    return acquire(zkQuorum, cluster, maxFrameBytes, connectTimeoutMs,
        IndexFsConfig.CLIENT_CACHE_ENTRIES.defaultValue());
  }

  /** As above, with a bound on the process's directory-entry cache (the first caller's setting wins). */
  public static ClusterConnection acquire(String zkQuorum, String cluster, int maxFrameBytes, int connectTimeoutMs,
      int cacheEntries) throws IOException {
    return acquire(zkQuorum, cluster, maxFrameBytes, connectTimeoutMs, cacheEntries, null);
  }

  /**
   * As above, for a caller whose connections authenticate with {@code authenticator} (Kerberos):
   * connections are shared only by callers of the same login, since the server takes the user from
   * the connection.
   */
  public static ClusterConnection acquire(String zkQuorum, String cluster, int maxFrameBytes, int connectTimeoutMs,
      int cacheEntries, SaslAuthenticator authenticator) throws IOException {
    return acquire(zkQuorum, cluster, maxFrameBytes, connectTimeoutMs, cacheEntries, authenticator,
        IndexFsConfig.CLIENT_CONNECTION_LINGER_MS.defaultValue());
  }

  /**
   * As above; after its last user closes, the shared connection stays open {@code lingerMs} for the
   * next (0: closes at once). Sharing is keyed by the authenticator's identity, which names the
   * login or token holder (not just the user), so a lingering connection is never handed to
   * credentials that did not authenticate it.
   */
  public static ClusterConnection acquire(String zkQuorum, String cluster, int maxFrameBytes, int connectTimeoutMs,
      int cacheEntries, SaslAuthenticator authenticator, long lingerMs) throws IOException {
    return acquire(zkQuorum, cluster, maxFrameBytes, connectTimeoutMs, cacheEntries, authenticator, lingerMs, "");
  }

  /**
   * As above; {@code serversId} is the servers' ZooKeeper identity
   * ({@code indexfs.security.zookeeper.server-id}): a slot map anyone else could write is refused.
   */
  public static ClusterConnection acquire(String zkQuorum, String cluster, int maxFrameBytes, int connectTimeoutMs,
      int cacheEntries, SaslAuthenticator authenticator, long lingerMs, String serversId) throws IOException {
    String key = zkQuorum + "/" + cluster + (authenticator == null ? "" : "#" + authenticator.identity())
        + (serversId.isEmpty() ? "" : "@" + serversId);
    synchronized (SHARED) {
      ClusterConnection c = SHARED.get(key);
      if (c == null) {
        c = new ClusterConnection(key, zkQuorum, cluster, maxFrameBytes, connectTimeoutMs, cacheEntries, serversId);
        c.authenticator = authenticator;
        c.lingerMs = lingerMs;
        SHARED.put(key, c);
      } else if (c.teardown != null) {
        // Reused while lingering: its session, connections and cached settings carry on.
        c.teardown.cancel(false);
        c.teardown = null;
      }
      c.references++;
      return c;
    }
  }

  /**
   * A connection of its own, with its own cache, as a second client process would have (tests of
   * cache consistency between clients). Closing it closes it.
   */
  public static ClusterConnection openUnshared(String zkQuorum, String cluster, int maxFrameBytes,
      int connectTimeoutMs) throws IOException {
    return openUnshared(zkQuorum, cluster, maxFrameBytes, connectTimeoutMs,
        IndexFsConfig.CLIENT_CACHE_ENTRIES.defaultValue());
  }

  /** As above, with a bound on its directory-entry cache. */
  public static ClusterConnection openUnshared(String zkQuorum, String cluster, int maxFrameBytes,
      int connectTimeoutMs, int cacheEntries) throws IOException {
    return openUnshared(zkQuorum, cluster, maxFrameBytes, connectTimeoutMs, cacheEntries, null);
  }

  /** As above, authenticating with {@code authenticator} (Kerberos) when not null. */
  public static ClusterConnection openUnshared(String zkQuorum, String cluster, int maxFrameBytes,
      int connectTimeoutMs, int cacheEntries, SaslAuthenticator authenticator) throws IOException {
    return openUnshared(zkQuorum, cluster, maxFrameBytes, connectTimeoutMs, cacheEntries, authenticator, "");
  }

  /** As above, refusing a slot map anyone but {@code serversId} could write (see {@link #acquire}). */
  public static ClusterConnection openUnshared(String zkQuorum, String cluster, int maxFrameBytes,
      int connectTimeoutMs, int cacheEntries, SaslAuthenticator authenticator, String serversId) throws IOException {
    ClusterConnection c = new ClusterConnection(null, zkQuorum, cluster, maxFrameBytes, connectTimeoutMs,
        cacheEntries, serversId);
    c.authenticator = authenticator;
    c.references = 1;
    return c;
  }

  public String cluster() {
    return cluster;
  }

  /** The directory entries this process has cached with leases, shared by all its callers. */
  public ResolutionCache resolutions() {
    return resolutions;
  }

  /** The settings a cluster's servers share, fetched for the process's first client only. */
  public org.indexfs.proto.ServerInfo serverInfo(ServerInfoSource fetch) throws IOException {
    org.indexfs.proto.ServerInfo known = serverInfo;
    if (known == null) {
      known = fetch.get();
      serverInfo = known;
    }
    return known;
  }

  /** Asks a server for its {@link org.indexfs.proto.ServerInfo}. */
  @FunctionalInterface
  public interface ServerInfoSource {
    org.indexfs.proto.ServerInfo get() throws IOException;
  }

  private volatile org.indexfs.proto.ServerInfo serverInfo;

  /** The number of slots the cluster was formatted with. */
  public int slotCount() throws IOException {
    return directory.slotCount();
  }

  /** How many connections per server listing pages spread over (1 to 16; the process's last setting holds). */
  public void listConnections(int n) {
    if (n < 1 || n > MAX_LANES) {
      throw new IllegalArgumentException(IndexFsConfig.CLIENT_LIST_CONNECTIONS.name() + " must be 1 to " + MAX_LANES
          + ", not " + n);
    }
    lanes = n;
  }

  /** What a call to {@code slot} names as its target, so a server reached at a stale address refuses it. */
  public String target(int slot) {
    return cluster + "/" + slot;
  }

  /** The live connection to the server of {@code slot}, (re)discovering it through ZooKeeper. */
  public RpcConnection connection(int slot) throws IOException {
    return connection(slot, false);
  }

  /** As above; a listing page ({@code spread}) takes its caller thread's lane (see {@link #lanes}). */
  public RpcConnection connection(int slot, boolean spread) throws IOException {
    int key = slot * MAX_LANES + (spread ? Math.floorMod(lane.get(), lanes) : 0);
    RpcConnection c = connections.get(key);
    if (c != null && c.isOpen()) {
      return c;
    }
    synchronized (this) {
      c = connections.get(key);
      if (c != null && c.isOpen()) {
        return c;
      }
      if (c != null) {
        c.close();
        connections.remove(key);
      }
      try {
        c = RpcConnection.open(group, directory.address(slot), maxFrameBytes, connectTimeoutMs, authenticator);
      } catch (IOException unreachable) {
        // A remembered address may be out of date: ask ZooKeeper once before giving up.
        directory.forget(slot);
        c = RpcConnection.open(group, directory.address(slot), maxFrameBytes, connectTimeoutMs, authenticator);
      }
      connections.put(key, c);
      return c;
    }
  }

  private static ByteString randomId() {
    UUID u = UUID.randomUUID();
    return ByteString.copyFrom(ByteBuffer.allocate(16)
        .putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits()).array());
  }

  /** 16 random bytes naming this connection's calls for the servers' retry caches. */
  public ByteString rpcClientId() {
    return rpcClientId;
  }

  /**
   * A call to {@code slot} failed on the wire, or its server does not serve it now: drop the
   * connection and the remembered address, so the next try asks ZooKeeper who serves the slot.
   */
  public void unreachable(int slot) {
    directory.forget(slot);
    forget(slot);
  }

  /** The server at {@code slot}'s remembered address serves something else now (WRONG_SERVER). */
  public void wrongServer(int slot) {
    directory.forget(slot);
    forget(slot);
  }

  /** The {@code host:port} the owner of {@code slot} registered, or null while nobody serves it (admin). */
  public String owner(int slot) throws IOException {
    try {
      CuratorFramework curator = session.get();
      curator.blockUntilConnected(connectTimeoutMs, TimeUnit.MILLISECONDS);
      directory.trust(curator);
      return new String(curator.getData().forPath(ClusterPaths.slot(cluster, slot)), java.nio.charset.StandardCharsets.UTF_8);
    } catch (org.apache.zookeeper.KeeperException.NoNodeException e) {
      return null;
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("ZooKeeper lookup of slot " + slot + " failed: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    synchronized (SHARED) {
      if (references <= 0) {
        // A second close by the same user: counting it would take the connection from under another.
        LOG.warn("Cluster connection {} closed more often than it was opened", key == null ? cluster : key,
            new IllegalStateException("extra close"));
        return;
      }
      if (--references > 0) {
        return;
      }
      if (key != null) {
        // A shared connection outlives its last user for a while, as Hadoop's IPC client keeps an
        // idle connection (ipc.client.connection.maxidletime, 10 s): a process that opens and closes
        // FileSystems in turn (FsShell commands, tasks, FileContext calls) does not pay a ZooKeeper
        // session, a connection and a settings call for each.
        if (lingerMs > 0 && !exiting) {
          teardown = LINGER.schedule(this::closeIfUnused, lingerMs, TimeUnit.MILLISECONDS);
          return;
        }
        SHARED.remove(key);
      }
    }
    shutdown();
  }

  private static final ScheduledExecutorService LINGER = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "indexfs-client-linger");
    t.setDaemon(true);
    return t;
  });

  /**
   * Set once the JVM is exiting: nothing lingers then. A lingering connection's network threads wait
   * in native code, and the JVM's exit waits up to 300 ms for such threads (a fresh `hadoop fs -ls`
   * took ~200 ms longer with the linger than without).
   */
  private static volatile boolean exiting;

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(ClusterConnection::closeLingering, "indexfs-client-exit"));
  }

  private static void closeLingering() {
    List<ClusterConnection> idle = new java.util.ArrayList<>();
    synchronized (SHARED) {
      exiting = true;
      for (ClusterConnection c : SHARED.values()) {
        if (c.references == 0 && c.teardown != null) {
          c.teardown.cancel(false);
          c.teardown = null;
          idle.add(c);
        }
      }
      idle.forEach(c -> SHARED.remove(c.key));
    }
    idle.forEach(ClusterConnection::shutdown);
  }

  /** Set while this shared connection lingers with no user (guarded by SHARED). */
  private ScheduledFuture<?> teardown;

  private void closeIfUnused() {
    synchronized (SHARED) {
      if (references > 0 || teardown == null) {
        return; // taken again meanwhile
      }
      teardown = null;
      SHARED.remove(key);
    }
    shutdown();
  }

  private void shutdown() {
    closing = true;
    synchronized (this) {
      connections.values().forEach(RpcConnection::close);
      connections.clear();
    }
    // Nothing here is worth waiting for: the threads are daemons, and the ZooKeeper session ends
    // by itself if its goodbye is cut short.
    group.shutdownGracefully(0, 2, TimeUnit.SECONDS);
    session.closeLater(() -> {
      CuratorCache watch = slotWatch;
      if (watch != null) {
        // The watch's first reads, when still in flight, would be answered into a closed session, and
        // Curator logs that at ERROR with a stack trace: on a `hadoop fs` command's stderr when it ends
        // just after the session started (ShadedClientJarIT, once in CI). This runs on the closer's own
        // daemon thread, so nobody waits for it.
        try {
          slotWatchBuilt.await(connectTimeoutMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        watch.close();
      }
    });
  }
}
