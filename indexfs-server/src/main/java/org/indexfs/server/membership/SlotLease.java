package org.indexfs.server.membership;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.indexfs.common.ClusterConfig;
import org.indexfs.common.ClusterPaths;
import org.indexfs.server.security.ServerZooKeeper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server's hold on its slot (DESIGN §8, §11): a Curator {@link LeaderLatch} at
 * {@code /indexfs/<c>/leases/<k>} makes at most one process the slot's owner; the owner bumps the
 * slot's {@link Epochs epoch} and publishes its address at {@code /indexfs/<c>/slots/<k>}, where
 * clients find it.
 *
 * <p>The moment the lease is in doubt (the ZooKeeper connection is suspended or the session lost)
 * the {@link Holder} is told to stop answering. The latch keeps contending on its own: when it is
 * won again and the epoch is still this writer's, nobody took over and the holder resumes; when the
 * epoch moved, another writer served the slot meanwhile and the holder is told it was superseded.
 */
public final class SlotLease implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SlotLease.class);

  /** What the owner of a slot is told about its lease. Calls come one at a time, in order. */
  public interface Holder {
    /** The lease is in doubt: stop answering at once. */
    void lost(String why);

    /** The lease is held again by this same writer (nobody took over): answer again. */
    void regained();

    /** The lease came back, but another writer held the slot meanwhile (the epoch is now {@code epoch}). */
    void superseded(long epoch);

    /** Called once the session is up, before waiting for the lease (a standby starts following here). */
    default void waiting(CuratorFramework curator) throws IOException {}
  }

  /** How long a handover names its target: past this, any waiting server may take the slot. */
  static final long HANDOVER_MS = 60_000;

  private final ServerZooKeeper zk;
  private final CuratorFramework curator;
  private final LeaderLatch latch;
  private final ClusterConfig config;
  private final String cluster;
  private final int slot;
  private final String id;
  private volatile byte[] address;
  private final Holder holder;
  /** Lease reactions run here, one at a time, never on Curator's event thread (they call ZooKeeper). */
  private final ExecutorService reactions;
  private volatile long epoch;
  /** Touched only on {@link #reactions}. */
  private boolean ready;
  private boolean held;
  private boolean superseded;
  /** A check of the epoch is scheduled (while connected but not holding the lease). */
  private boolean watching;

  /**
   * Acquires slot {@code slot} of {@code cluster}, waiting up to {@code waitMs} for a previous
   * owner's lease to end, and takes a new epoch; {@code id} names this process to others waiting.
   * The owner publishes its address with {@link #publish} once it answers calls. A cluster that was
   * never formatted is formatted with one slot when slot 0 starts (the single-server case);
   * otherwise it must be formatted first.
   */
  public SlotLease(ServerZooKeeper zk, String zkQuorum, int sessionTimeoutMs, String cluster, int slot, String id,
      long waitMs, Holder holder) throws IOException {
    this.zk = zk;
    this.cluster = cluster;
    this.slot = slot;
    this.id = id;
    this.holder = holder;
    reactions = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "indexfs-slot-lease-" + slot);
      t.setDaemon(true);
      return t;
    });
    // Authenticated as the servers; every node it makes is theirs to change (issue 31).
    curator = zk.builder(zkQuorum)
        .sessionTimeoutMs(sessionTimeoutMs)
        .connectionTimeoutMs(15_000)
        .build();
    curator.start();
    LeaderLatch acquired = null;
    try {
      if (!curator.blockUntilConnected(30, TimeUnit.SECONDS)) {
        throw new IOException("Cannot reach ZooKeeper at " + zkQuorum);
      }
      zk.confirm(curator);
      config = slot == 0 ? formatIfNew(cluster) : ClusterFormat.read(curator, cluster);
      // A cluster whose nodes someone else could change (an open root, a planted slot map) is not served.
      zk.checkCluster(curator, cluster);
      if (slot < 0 || slot >= config.slots()) {
        throw new IOException("Cluster '" + cluster + "' has slots 0.." + (config.slots() - 1) + "; there is no slot " + slot);
      }
      holder.waiting(curator);
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
      while (true) {
        acquired = join();
        long left = Math.max(0, (deadline - System.nanoTime()) / 1_000_000);
        if (!acquired.await(waitMs == Long.MAX_VALUE ? Long.MAX_VALUE : left, TimeUnit.MILLISECONDS)) {
          throw new IOException("Slot " + slot + " of cluster '" + cluster + "' is held by another server ("
              + describeLeader(acquired) + ") for more than " + waitMs + " ms");
        }
        String target = Handovers.target(curator, cluster, slot);
        if (target == null || id.contains(target)) {
          Handovers.done(curator, cluster, slot);
          break;
        }
        // A planned handover names another server: let the lease pass on to it (DESIGN §11).
        LOG.info("Slot {}: a handover names {}; {} lets the lease pass", slot, target, id);
        closeQuietly(acquired);
        acquired = null;
        Thread.sleep(200);
      }
      LeaderLatch latchNow = acquired;
      reactions.submit(() -> {
        epoch = Epochs.bump(curator, cluster, slot);
        if (!latchNow.hasLeadership()) {
          throw new IOException("Lost the lease of slot " + slot + " while taking it");
        }
        held = true;
        ready = true;
        return null;
      }).get();
    } catch (IOException e) {
      abandon(acquired);
      throw e;
    } catch (ExecutionException e) {
      abandon(acquired);
      throw e.getCause() instanceof IOException io ? io
          : new IOException("Cannot take slot " + slot + ": " + e.getCause().getMessage(), e.getCause());
    } catch (Exception e) {
      abandon(acquired);
      throw new IOException("Cannot take slot " + slot + ": " + e.getMessage(), e);
    }
    latch = acquired;
    // Back in touch with ZooKeeper without the lease: a successor that took the slot meanwhile keeps
    // it, so the latch never calls back; the epoch tells (a partitioned writer, DESIGN §11).
    curator.getConnectionStateListenable().addListener((client, state) -> {
      if (state == ConnectionState.RECONNECTED) {
        watchEpoch();
      }
    }, reactions);
    LOG.info("Slot {} of cluster {} ({} slots) leased by {} at epoch {}", slot, cluster, config.slots(), id, epoch);
  }

  /** Publishes where this owner answers ({@code host:port}); published again whenever the lease comes back. */
  public void publish(String hostPort) throws IOException {
    address = hostPort.getBytes(StandardCharsets.UTF_8);
    try {
      reactions.submit(() -> {
        if (held) {
          publish();
        }
        return null;
      }).get();
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("Interrupted publishing slot " + slot);
    }
    LOG.info("Slot {} published at {}", slot, hostPort);
  }

  /** A new place in the queue for the slot's lease. */
  private LeaderLatch join() throws Exception {
    LeaderLatch l = new LeaderLatch(curator, ClusterPaths.lease(cluster, slot), id);
    l.addListener(new LeaderLatchListener() {
      @Override
      public void isLeader() {
        won();
      }

      @Override
      public void notLeader() {
        lostLatch();
      }
    }, reactions);
    l.start();
    return l;
  }

  private void abandon(LeaderLatch acquired) {
    closeQuietly(acquired);
    curator.close();
    reactions.shutdownNow();
  }

  /** On {@link #reactions}: the latch says this process leads (again). */
  private void won() {
    if (!ready || held || superseded) {
      return;
    }
    try {
      long now = Epochs.read(curator, cluster, slot);
      if (now != epoch) {
        superseded = true;
        LOG.error("Slot {} came back to this server, but epoch {} took over meanwhile (this writer's was {})",
            slot, now, epoch);
        holder.superseded(now);
        return;
      }
      if (address != null) {
        publish();
      }
      held = true;
      LOG.info("Slot {} leased again at epoch {}: nobody took over while the lease was in doubt", slot, epoch);
      holder.regained();
    } catch (IOException | RuntimeException e) {
      // ZooKeeper went away again: the latch calls back when it is reachable.
      LOG.warn("Could not confirm the lease of slot {}: {}", slot, e.toString());
    }
  }

  /**
   * On {@link #reactions}: while this writer is connected but does not hold the lease, checks every
   * second whether another writer bumped the epoch; if so, it was superseded.
   */
  private void watchEpoch() {
    if (!ready || held || superseded || watching) {
      return;
    }
    watching = true;
    checkEpoch();
  }

  private void checkEpoch() {
    watching = false;
    if (!ready || held || superseded) {
      return;
    }
    long now;
    try {
      now = Epochs.read(curator, cluster, slot);
    } catch (IOException | RuntimeException e) {
      // Out of touch again: the next reconnection looks again.
      return;
    }
    if (now != epoch) {
      superseded = true;
      LOG.error("Slot {} is served at epoch {} now (this writer's was {}): another server took it over", slot, now, epoch);
      holder.superseded(now);
      return;
    }
    watching = true;
    try {
      CompletableFuture.delayedExecutor(1, TimeUnit.SECONDS, reactions).execute(this::checkEpoch);
    } catch (RejectedExecutionException closing) {
      watching = false;
    }
  }

  /** On {@link #reactions}: the latch says this process may no longer lead. */
  private void lostLatch() {
    if (!ready || !held) {
      return;
    }
    held = false;
    LOG.error("The lease of slot {} is in doubt (ZooKeeper connection lost): this server stops answering until it holds it again", slot);
    holder.lost("its ZooKeeper lease is in doubt");
  }

  /**
   * Publishes this server's address for the slot: an ephemeral node of this session. A node left by
   * an earlier session of this process (a session that expired while ZooKeeper was away) is replaced.
   */
  private void publish() throws IOException {
    String path = ClusterPaths.slot(cluster, slot);
    try {
      long session = curator.getZookeeperClient().getZooKeeper().getSessionId();
      Stat stat = curator.checkExists().forPath(path);
      if (stat != null && stat.getEphemeralOwner() != session) {
        try {
          curator.delete().withVersion(stat.getVersion()).forPath(path);
        } catch (KeeperException.NoNodeException | KeeperException.BadVersionException gone) {
          // Already replaced or removed: create below decides.
        }
        stat = null;
      }
      if (stat == null) {
        curator.create().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(path, address);
      } else {
        curator.setData().forPath(path, address);
      }
    } catch (Exception e) {
      throw new IOException("Could not publish the address of slot " + slot + ": " + e.getMessage(), e);
    }
  }

  private ClusterConfig formatIfNew(String cluster) throws IOException {
    try {
      return ClusterFormat.read(curator, cluster);
    } catch (IOException notFormatted) {
      return ClusterFormat.format(curator, cluster, 1);
    }
  }

  private static String describeLeader(LeaderLatch latch) {
    try {
      return latch.getLeader().getId();
    } catch (Exception e) {
      return "unknown";
    }
  }

  /** The session this server holds its slot with; peers and placement read the registry through it. */
  public CuratorFramework curator() {
    return curator;
  }

  /** How this server is known in ZooKeeper, and what it trusts there. */
  public ServerZooKeeper zooKeeper() {
    return zk;
  }

  public ClusterConfig clusterConfig() {
    return config;
  }

  /** The epoch this writer took the slot with. */
  public long epoch() {
    return epoch;
  }

  private static void closeQuietly(LeaderLatch latch) {
    if (latch == null) {
      return;
    }
    try {
      latch.close(LeaderLatch.CloseMode.SILENT);
    } catch (IOException e) {
      LOG.warn("Could not release a slot latch", e);
    }
  }

  @Override
  public void close() {
    reactions.shutdownNow();
    try {
      // Without a connection there is nothing to clean: the address node is ephemeral and dies with
      // the session; trying would only wait out the retry policy.
      if (curator.getZookeeperClient().isConnected()) {
        unpublish();
      }
    } finally {
      closeQuietly(latch);
      curator.close();
    }
  }

  private void unpublish() {
    String path = ClusterPaths.slot(cluster, slot);
    try {
      Stat stat = curator.checkExists().forPath(path);
      if (stat != null && stat.getEphemeralOwner() == curator.getZookeeperClient().getZooKeeper().getSessionId()) {
        curator.delete().withVersion(stat.getVersion()).forPath(path);
      }
    } catch (Exception e) {
      LOG.warn("Could not remove the address of slot {}: {}", slot, e.toString());
    }
  }
}
