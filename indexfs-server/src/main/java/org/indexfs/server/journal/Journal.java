package org.indexfs.server.journal;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LeaseRecoverable;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.indexfs.server.data.DataTier;
import org.indexfs.server.store.LogPosition;
import org.indexfs.server.store.MetadataStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A slot's journal on the data tier (DESIGN §11, IndexFS §II-E): the slot's state pushed into the
 * underlying file system, so that another process can take the slot over. Owns its own
 * {@link FileSystem} (closed with it).
 *
 * <p>A process that becomes the slot's writer {@linkplain #takeOver takes over}: it fences every
 * earlier writer, brings its store to the end of the history and opens its own segment. A standby
 * {@linkplain #catchUp catches up} the same way, again and again, without fencing anyone.
 */
public final class Journal implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Journal.class);
  private static final long LEASE_RECOVERY_WAIT_MS = 120_000;

  /** A writer's store, brought up to date, and its journal writer. */
  public record Takeover(MetadataStore store, JournalWriter writer) {}

  private final FileSystem fs;
  private final FileSystem owned;
  private final JournalLayout layout;
  private final Checkpoints checkpoints;
  private final long segmentBytes;
  private final int slot;
  private volatile long rebuiltFrom = -1;

  /**
   * How a journal reaches the data tier: with the server's Hadoop settings (the data tier's
   * security and client keys) and, with Kerberos, as the server's own login — as {@link DataTier}
   * does for objects — not as whoever the process happens to run as.
   */
  public record Access(Configuration conf, DataTier.Login login) {
    /** Default Hadoop settings, the process's user (a data tier without Kerberos; tests). */
    public static Access plain() {
      return new Access(new Configuration(), null);
    }

    /** Opens the data tier; {@code who[0]} is set to the user it was opened as. */
    FileSystem open(String dataUri, String[] who) throws IOException {
      Configuration c = new Configuration(conf);
      // Segments, checkpoints and journaled SSTs are the servers' alone from their creation (issue 31).
      c.set("fs.permissions.umask-mode", DataTier.SERVER_UMASK);
      java.security.PrivilegedExceptionAction<FileSystem> open = () -> {
        who[0] = org.apache.hadoop.security.UserGroupInformation.getCurrentUser().getShortUserName();
        return FileSystem.newInstance(URI.create(dataUri), c);
      };
      if (login == null) {
        try {
          return open.run();
        } catch (IOException | RuntimeException e) {
          throw e;
        } catch (Exception e) {
          throw new IOException(e);
        }
      }
      return login.open(open);
    }
  }

  private Journal(String dataUri, int slot, long segmentBytes, int checkpointsKept, Access access)
      throws IOException {
    String[] who = new String[1];
    owned = access.open(dataUri, who);
    // A local data tier: the raw file system, whose streams hsync (fsync) for real, with no .crc files.
    fs = owned instanceof LocalFileSystem local ? local.getRaw() : owned;
    // The journal may be the first on the data tier: it lays it out as the servers' (.journal 0700).
    try {
      org.indexfs.server.data.DataTierLayout.prepare(owned, dataUri, slot, who[0]);
    } catch (IOException e) {
      owned.close();
      throw e;
    }
    this.layout = new JournalLayout(fs, new Path(dataUri + "/" + org.indexfs.server.data.DataTierLayout.JOURNAL + "/"
        + slot));
    this.checkpoints = new Checkpoints(layout, checkpointsKept);
    this.segmentBytes = segmentBytes;
    this.slot = slot;
    fs.mkdirs(layout.root());
  }

  public static Journal open(String dataUri, int slot, long segmentBytes, int checkpointsKept) throws IOException {
    return open(dataUri, slot, segmentBytes, checkpointsKept, Access.plain());
  }

  public static Journal open(String dataUri, int slot, long segmentBytes, int checkpointsKept, Access access)
      throws IOException {
    if (dataUri.isEmpty()) {
      throw new IOException("indexfs.journal.enabled needs indexfs.data.uri: the journal lives on the data tier");
    }
    return new Journal(dataUri, slot, segmentBytes, checkpointsKept, access);
  }

  /**
   * The writer of {@code epoch} takes the slot over: renames every earlier epoch's directory (the
   * fence), recovers the lease of their open segments (HDFS), brings {@code store} to the end of the
   * history and opens a segment starting after it. {@code store} may be replaced (rebuilt from a
   * checkpoint when it holds changes the history does not); the result holds the one to use.
   */
  public Takeover takeOver(MetadataStore store, java.nio.file.Path dir, long epoch, Runnable onFenced)
      throws IOException {
    for (JournalLayout.EpochDir e : layout.epochs()) {
      if (e.epoch() >= epoch) {
        throw new IOException("Slot " + slot + " has a journal of epoch " + e.epoch() + ", not older than this writer's "
            + epoch + ": another writer took over");
      }
      if (!e.fenced() && !fs.rename(e.path(), layout.fencedDir(e.epoch())) && fs.exists(e.path())) {
        throw new IOException("Could not fence the journal of epoch " + e.epoch() + " at " + e.path());
      }
    }
    if (fs instanceof LeaseRecoverable recoverable) {
      for (JournalLayout.EpochDir e : layout.epochs()) {
        var segs = layout.segments(e.path());
        if (!segs.isEmpty()) {
          recoverLease(recoverable, segs.get(segs.size() - 1).path());
        }
      }
    }
    MetadataStore current = catchUp(store, dir);
    LogPosition end = current.position();
    fs.mkdirs(layout.liveDir(epoch));
    JournalWriter writer = new JournalWriter(layout, epoch, end.seq() + 1, segmentBytes, onFenced);
    LOG.info("Slot {}: epoch {} writes the journal from record {} on", slot, epoch, end.seq() + 1);
    return new Takeover(current, writer);
  }

  /** Waits until the segment a fenced writer had open is closed on HDFS: its writer can append no more. */
  private static void recoverLease(LeaseRecoverable fs, Path segment) throws IOException {
    long deadline = System.nanoTime() + LEASE_RECOVERY_WAIT_MS * 1_000_000;
    while (!fs.recoverLease(segment)) {
      if (System.nanoTime() > deadline) {
        throw new IOException("The lease of journal segment " + segment + " was not recovered in "
            + LEASE_RECOVERY_WAIT_MS + " ms");
      }
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("Interrupted recovering " + segment);
      }
    }
  }

  /**
   * Brings {@code store} (opened on {@code dir}) to the end of the history now in the journal. A
   * store that holds a change the history does not (a writer's changes never made durable), or that
   * is older than the journal's oldest record, is replaced by the latest checkpoint first. Returns
   * the store to use (the same, or a new one on {@code dir}).
   */
  public MetadataStore catchUp(MetadataStore store, java.nio.file.Path dir) throws IOException {
    MetadataStore current = store;
    if (!consistent(current)) {
      current = rebuild(current, dir);
    }
    JournalCursor cursor = new JournalCursor(layout, current.position().seq());
    try {
      replay(cursor, current);
    } catch (JournalCursor.HistoryGone gone) {
      current = rebuild(current, dir);
      replay(new JournalCursor(layout, current.position().seq()), current);
    }
    return current;
  }

  /** Applies every record the cursor reaches now; returns how many. */
  int replay(JournalCursor cursor, MetadataStore store) throws IOException {
    int total = 0;
    for (int n; (n = cursor.poll(record -> apply(store, record))) > 0; ) {
      total += n;
    }
    return total;
  }

  /** A cursor after {@code store}'s position, for a standby that keeps {@link #replay replaying}. */
  JournalCursor cursorAfter(MetadataStore store) throws IOException {
    return new JournalCursor(layout, store.position().seq());
  }

  private void apply(MetadataStore store, JournalRecord record) throws IOException {
    if (record.type() == JournalRecord.BATCH) {
      store.applyReplicated(record.payload());
      return;
    }
    if (record.type() != JournalRecord.INGEST) {
      throw new IOException("Unknown journal record type " + record.type() + " at " + record.seq());
    }
    String named = new String(record.payload(), StandardCharsets.UTF_8);
    int slash = named.indexOf('/');
    String columnFamily = slash < 0 ? "entries" : named.substring(0, slash);
    String name = named.substring(slash + 1);
    java.nio.file.Path local = Files.createTempFile("indexfs-replay-" + slot + "-", ".sst");
    Files.delete(local);
    try {
      fs.copyToLocalFile(false, new Path(layout.ssts(), name), new Path(local.toUri()), true);
      store.applyReplicatedIngest(columnFamily, local, new LogPosition(record.epoch(), record.seq()));
    } finally {
      Files.deleteIfExists(local);
    }
  }

  /**
   * True when the store's last change is the history's change at that sequence (same epoch), or
   * it has none and the history starts at its first record.
   */
  private boolean consistent(MetadataStore store) throws IOException {
    LogPosition pos = store.position();
    if (pos.seq() == 0) {
      return checkpoints.latest() < 0;
    }
    JournalRecord at;
    try {
      at = new JournalCursor(layout, pos.seq() - 1).peek();
    } catch (JournalCursor.HistoryGone gone) {
      return false;
    }
    boolean same = at != null && at.epoch() == pos.epoch();
    if (!same) {
      LOG.warn("Slot {}: the store's last change {} is not in the journal's history ({}): rebuilding from a checkpoint",
          slot, pos, at == null ? "the history ends before it" : "the history has epoch " + at.epoch() + " there");
    }
    return same;
  }

  /** Replaces the store with the latest checkpoint (or an empty store when there is none). */
  private MetadataStore rebuild(MetadataStore store, java.nio.file.Path dir) throws IOException {
    store.close();
    java.nio.file.Path aside = dir.resolveSibling(dir.getFileName() + ".diverged");
    Checkpoints.deleteLocal(aside);
    Files.move(dir, aside);
    long seq = checkpoints.latest();
    rebuiltFrom = seq;
    if (seq >= 0) {
      checkpoints.download(seq, dir);
      LOG.info("Slot {}: store rebuilt from checkpoint {} (the previous one kept at {})", slot, seq, aside);
    } else {
      LOG.info("Slot {}: store rebuilt from the journal's first record (the previous one kept at {})", slot, aside);
    }
    return MetadataStore.open(dir);
  }

  /** The checkpoint the last rebuild started from (-1: none, or from the first record). */
  public long rebuiltFrom() {
    return rebuiltFrom;
  }

  /** Publishes a checkpoint of the writer's store now (see {@link Checkpoints#publish}). */
  public LogPosition checkpoint(MetadataStore store, JournalWriter writer) throws IOException {
    return checkpoints.publish(store, writer);
  }

  /** The sequence of the latest complete checkpoint, or -1. */
  public long latestCheckpoint() throws IOException {
    return checkpoints.latest();
  }

  @Override
  public void close() throws IOException {
    owned.close();
  }
}
