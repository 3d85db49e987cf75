package org.indexfs.server.journal;

import java.io.IOException;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.server.Periodic;
import org.indexfs.server.store.LogPosition;
import org.indexfs.server.store.MetadataStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The journal of the slot this server writes (DESIGN §11): taken over at start, appended to by the
 * store's every commit, checkpointed now and then. Owns the journal and its writer.
 */
public final class ActiveJournal implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ActiveJournal.class);
  private static final long CHECK_EVERY_MS = 2_000;

  private final Journal journal;
  private final JournalWriter writer;
  private final MetadataStore store;
  private final long checkpointRecords;
  private final long checkpointIntervalMs;
  private Periodic checkpointer;
  private long lastCheckpointSeq = -1;
  private long lastCheckpointAt = System.currentTimeMillis();

  private ActiveJournal(Journal journal, Journal.Takeover takeover, Map<String, String> conf) {
    this.journal = journal;
    this.writer = takeover.writer();
    this.store = takeover.store();
    this.checkpointRecords = IndexFsConfig.JOURNAL_CHECKPOINT_RECORDS.get(conf);
    this.checkpointIntervalMs = IndexFsConfig.JOURNAL_CHECKPOINT_INTERVAL_MS.get(conf);
  }

  /**
   * Takes slot {@code slot}'s journal over as the writer of {@code epoch} ({@link Journal#takeOver})
   * and makes {@link #store} replicate every commit to it. {@code onFenced} runs when a successor
   * fenced this writer.
   */
  public static ActiveJournal takeOver(Map<String, String> conf, int slot, MetadataStore store,
      java.nio.file.Path dir, long epoch, Runnable onFenced) throws IOException {
    Journal journal = Journal.open(IndexFsConfig.DATA_URI.get(conf), slot,
        IndexFsConfig.JOURNAL_SEGMENT_BYTES.get(conf), IndexFsConfig.JOURNAL_CHECKPOINTS_KEPT.get(conf),
        org.indexfs.server.security.HadoopSettings.of(conf));
    try {
      Journal.Takeover t = journal.takeOver(store, dir, epoch, onFenced);
      t.store().replicateTo(t.writer());
      return new ActiveJournal(journal, t, conf);
    } catch (IOException | RuntimeException e) {
      journal.close();
      throw e;
    }
  }

  /** The store to serve from (rebuilt from a checkpoint if the one opened had diverged). */
  public MetadataStore store() {
    return store;
  }

  public long epoch() {
    return writer.epoch();
  }

  /** Every change up to this sequence is durable in the journal. */
  public long durableUpTo() {
    return writer.durableUpTo();
  }

  /**
   * Publishes checkpoints from now on, while {@code serving}: one at once if the slot has none yet
   * (a standby needs a start), then after {@code indexfs.journal.checkpoint-records} records or
   * {@code indexfs.journal.checkpoint-interval-ms}.
   */
  public void startCheckpoints(int slot, BooleanSupplier serving) throws IOException {
    lastCheckpointSeq = journal.latestCheckpoint();
    checkpointer = new Periodic("indexfs-checkpoint-" + slot, CHECK_EVERY_MS, true, () -> {
      if (serving.getAsBoolean()) {
        checkpointIfDue();
      }
    });
    checkpointer.start();
  }

  private synchronized void checkpointIfDue() throws IOException {
    long seq = store.position().seq();
    boolean due = lastCheckpointSeq < 0
        || seq - lastCheckpointSeq >= checkpointRecords
        || seq > lastCheckpointSeq && System.currentTimeMillis() - lastCheckpointAt >= checkpointIntervalMs;
    if (due) {
      checkpointNow();
    }
  }

  /** Publishes a checkpoint of the store now; returns its position. */
  public synchronized LogPosition checkpointNow() throws IOException {
    LogPosition at = journal.checkpoint(store, writer);
    lastCheckpointSeq = at.seq();
    lastCheckpointAt = System.currentTimeMillis();
    return at;
  }

  @Override
  public void close() {
    if (checkpointer != null) {
      checkpointer.close();
    }
    store.replicateTo(null);
    writer.close();
    try {
      journal.close();
    } catch (IOException e) {
      LOG.warn("The journal's file system did not close cleanly: {}", e.toString());
    }
  }
}
