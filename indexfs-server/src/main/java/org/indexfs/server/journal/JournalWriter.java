package org.indexfs.server.journal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.LeaseRecoverable;
import org.apache.hadoop.fs.Path;
import org.indexfs.server.store.ChangeLog;
import org.indexfs.server.store.LogPosition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The active writer's journal (DESIGN §11): every committed batch of the slot, with its sequence
 * number and the writer's epoch, appended to a segment on the data tier. Appends only queue the
 * bytes; {@link #sync} — called by the group commit right after the WAL fsync, before any reply
 * leaves — writes everything queued and {@code hsync}s it, so one data-tier round trip covers every
 * mutation of the round. Segments roll at {@code indexfs.journal.segment-bytes}.
 *
 * <p>Fenced writers: once a successor renamed this epoch's directory (and, on HDFS, recovered the
 * open segment's lease) nothing written here can become durable history: on HDFS the hsync fails;
 * elsewhere the writer checks after each sync that its directory is still there. Either way the
 * writer refuses every later sync, so nothing more is acknowledged.
 */
public final class JournalWriter implements ChangeLog, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(JournalWriter.class);

  private final JournalLayout layout;
  private final long epoch;
  private final long segmentBytes;
  private final Path dir;
  private final boolean leasesFence;
  private final Runnable onFenced;
  private final Object queueLock = new Object();
  private List<byte[]> queued = new ArrayList<>();
  private long nextSeq;
  private long queuedUpTo;
  private volatile long durableUpTo;
  private FSDataOutputStream out;
  private long written;
  private IOException fenced;

  JournalWriter(JournalLayout layout, long epoch, long firstSeq, long segmentBytes, Runnable onFenced)
      throws IOException {
    this.layout = layout;
    this.epoch = epoch;
    this.segmentBytes = segmentBytes;
    this.dir = layout.liveDir(epoch);
    this.leasesFence = layout.fs() instanceof LeaseRecoverable;
    this.onFenced = onFenced;
    this.nextSeq = firstSeq;
    this.queuedUpTo = firstSeq - 1;
    this.durableUpTo = firstSeq - 1;
    this.out = create(firstSeq);
  }

  private FSDataOutputStream create(long firstSeq) throws IOException {
    // Non-recursive: once a successor renamed this epoch's directory, no segment can appear here.
    return layout.fs().createFile(JournalLayout.segment(dir, firstSeq)).overwrite(false).build();
  }

  public long epoch() {
    return epoch;
  }

  /** Every record up to this sequence is durable in the journal. */
  public long durableUpTo() {
    return durableUpTo;
  }

  @Override
  public LogPosition next() {
    return new LogPosition(epoch, nextSeq);
  }

  @Override
  public void append(LogPosition at, byte[] batch) {
    queue(at, JournalRecord.BATCH, batch);
  }

  @Override
  public String ship(java.nio.file.Path sst) throws IOException {
    String name = "tmp-" + UUID.randomUUID() + ".sst";
    layout.fs().copyFromLocalFile(false, true, new Path(sst.toUri()), new Path(layout.ssts(), name));
    return name;
  }

  @Override
  public void appendIngest(LogPosition at, String shipped, String columnFamily) throws IOException {
    Path named = layout.sst(at.seq());
    if (!layout.fs().rename(new Path(layout.ssts(), shipped), named)) {
      throw new IOException("Could not name the shipped SST file " + shipped + " " + named.getName());
    }
    // "<column family>/<file>": splits ship the entries and their listing-order index (DESIGN §13).
    queue(at, JournalRecord.INGEST, (columnFamily + "/" + named.getName()).getBytes(StandardCharsets.UTF_8));
  }

  private void queue(LogPosition at, byte type, byte[] payload) {
    if (at.seq() != nextSeq || at.epoch() != epoch) {
      throw new IllegalStateException("Journal append out of order: " + at + ", expected " + nextSeq + "@e" + epoch);
    }
    byte[] record = new JournalRecord(epoch, at.seq(), type, payload).encode();
    synchronized (queueLock) {
      queued.add(record);
      queuedUpTo = at.seq();
    }
    nextSeq++;
  }

  @Override
  public synchronized void sync() throws IOException {
    if (fenced != null) {
      throw fenced;
    }
    List<byte[]> batch;
    long upTo;
    synchronized (queueLock) {
      if (queued.isEmpty()) {
        return;
      }
      batch = queued;
      queued = new ArrayList<>();
      upTo = queuedUpTo;
    }
    try {
      for (byte[] record : batch) {
        out.write(record);
        written += record.length;
      }
      out.hsync();
      if (!leasesFence && !layout.fs().exists(dir)) {
        throw new IOException("the journal directory " + dir + " was renamed by a successor");
      }
      durableUpTo = upTo;
      if (written >= segmentBytes) {
        out.close();
        out = create(upTo + 1);
        written = 0;
      }
    } catch (IOException e) {
      fenced = new IOException("The journal of epoch " + epoch + " cannot be written any more (fenced by a"
          + " successor, or the data tier failed): " + e.getMessage(), e);
      LOG.error("{}; this writer acknowledges nothing more", fenced.getMessage());
      onFenced.run();
      throw fenced;
    }
  }

  /** Makes the journal durable and closes the open segment (a clean stop or a handover). */
  @Override
  public synchronized void close() {
    try {
      if (fenced == null) {
        sync();
        out.close();
        fenced = new IOException("The journal of epoch " + epoch + " is closed");
      }
    } catch (IOException e) {
      LOG.warn("Journal segment did not close cleanly: {}", e.toString());
    }
  }
}
