package org.indexfs.server.journal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.indexfs.common.ClusterPaths;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.server.store.LogPosition;
import org.indexfs.server.store.MetadataStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A standby of a slot (DESIGN §11, IndexFS §II-E): while its server waits for the slot's lease it
 * tails the slot's journal into its own store — starting from the latest checkpoint if it has
 * nothing, or diverged — and says how far it got at {@code /indexfs/<c>/standbys/<k>/<name>}.
 * When the lease is won, {@link #stop} hands the store to the takeover, which fences the old writer
 * and replays the rest.
 */
public final class Standby implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Standby.class);
  private static final long POLL_MS = 100;
  private static final long PUBLISH_EVERY_MS = 1_000;

  private final Journal journal;
  private final java.nio.file.Path dir;
  private final int slot;
  private final String name;
  private final Thread follower;
  private volatile MetadataStore store;
  private volatile boolean running = true;
  private volatile CuratorFramework curator;
  private volatile String registered;
  private volatile long applied;

  private Standby(Journal journal, MetadataStore store, java.nio.file.Path dir, int slot, String name) {
    this.journal = journal;
    this.store = store;
    this.dir = dir;
    this.slot = slot;
    this.name = name;
    this.follower = new Thread(this::follow, "indexfs-standby-" + slot);
    follower.setDaemon(true);
  }

  /** Brings {@code store} up to the journal's end and keeps following it, until {@link #stop}. */
  public static Standby follow(Map<String, String> conf, int slot, MetadataStore store, java.nio.file.Path dir,
      String name) throws IOException {
    Journal journal = Journal.open(IndexFsConfig.DATA_URI.get(conf), slot,
        IndexFsConfig.JOURNAL_SEGMENT_BYTES.get(conf), IndexFsConfig.JOURNAL_CHECKPOINTS_KEPT.get(conf),
        org.indexfs.server.security.HadoopSettings.of(conf));
    try {
      MetadataStore current = journal.catchUp(store, dir);
      Standby s = new Standby(journal, current, dir, slot, name);
      LOG.info("Slot {}: standby {} follows the journal from {}", slot, name, current.position());
      s.follower.start();
      return s;
    } catch (IOException | RuntimeException e) {
      journal.close();
      throw e;
    }
  }

  /** Says at {@code /indexfs/<cluster>/standbys/<slot>/<name>} that this standby follows the slot, and how far. */
  public void register(CuratorFramework session, String cluster) throws IOException {
    String path = ClusterPaths.standbys(cluster, slot) + "/" + name.replace('/', '_');
    try {
      session.create().orSetData().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL)
          .forPath(path, describe());
    } catch (Exception e) {
      throw new IOException("Cannot register standby " + name + ": " + e.getMessage(), e);
    }
    this.curator = session;
    this.registered = path;
  }

  private byte[] describe() throws IOException {
    return (name + " " + store.position()).getBytes(StandardCharsets.UTF_8);
  }

  /** The position of the last change this standby applied. */
  public LogPosition position() throws IOException {
    return store.position();
  }

  private void follow() {
    long published = 0;
    JournalCursor cursor = null;
    while (running) {
      try {
        if (cursor == null) {
          cursor = journal.cursorAfter(store);
        }
        int n = journal.replay(cursor, store);
        applied += n;
        if (System.currentTimeMillis() - published > PUBLISH_EVERY_MS && registered != null) {
          curator.setData().forPath(registered, describe());
          published = System.currentTimeMillis();
        }
      } catch (JournalCursor.HistoryGone gone) {
        // Fell behind the oldest kept checkpoint: start again from the latest one.
        try {
          store = journal.catchUp(store, dir);
        } catch (IOException e) {
          LOG.warn("Slot {}: standby could not restart from a checkpoint: {}", slot, e.toString());
        }
        cursor = null;
      } catch (Exception e) {
        LOG.warn("Slot {}: standby could not follow the journal ({}); trying again", slot, e.toString());
        cursor = null;
      }
      sleep();
    }
  }

  private void sleep() {
    try {
      Thread.sleep(POLL_MS);
    } catch (InterruptedException e) {
      running = false;
    }
  }

  /** The checkpoint this standby's store was last rebuilt from (-1: none). */
  public long startedFromCheckpoint() {
    return journal.rebuiltFrom();
  }

  /** Records applied since this standby started following. */
  public long applied() {
    return applied;
  }

  /** Stops following; the store (possibly rebuilt meanwhile) now belongs to the caller. */
  public MetadataStore stop() {
    running = false;
    try {
      follower.join(30_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    unregister();
    try {
      journal.close();
    } catch (IOException e) {
      LOG.warn("Standby's journal did not close cleanly: {}", e.toString());
    }
    return store;
  }

  private void unregister() {
    if (registered != null && curator != null) {
      try {
        curator.delete().forPath(registered);
      } catch (Exception gone) {
        // ephemeral: it goes with the session anyway
      }
    }
  }

  @Override
  public void close() {
    stop().close();
  }
}
