package org.indexfs.server.journal;

import java.io.DataInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;

/**
 * Reads a slot's history from the journal, in order, from a given sequence on — all of it (a new
 * writer catching up), or as it grows (a standby tailing the active).
 *
 * <p>The history is the epochs' records in turn: epoch E's writer started at the sequence after
 * the last record it found, {@code s_E} (its first segment's name), so an earlier epoch's records
 * count only below the next epoch's {@code s}: whatever a fenced writer appended after its
 * successor read its segment is not history.
 */
final class JournalCursor {
  /** Applies one record of the history. */
  @FunctionalInterface
  interface Handler {
    void apply(JournalRecord record) throws IOException;
  }

  /** The wanted sequence is older than the journal's oldest record: only a checkpoint has it. */
  static final class HistoryGone extends IOException {
    HistoryGone(String message) {
      super(message);
    }
  }

  /** One epoch that wrote: its directory's segments and the sequence it started at. */
  private record Epoch(long epoch, List<JournalLayout.Segment> segments) {
    long start() {
      return segments.get(0).firstSeq();
    }
  }

  private final JournalLayout layout;
  private long next;
  private Path segment;
  private long segmentEpoch;
  private long offset;
  private long limit;

  /** A cursor whose first record will be {@code after + 1}. */
  JournalCursor(JournalLayout layout, long after) {
    this.layout = layout;
    this.next = after + 1;
  }

  /** The sequence of the next record this cursor will apply. */
  long nextSeq() {
    return next;
  }

  /** Applies every record of the history available now, in order; returns how many. */
  int poll(Handler handler) throws IOException {
    int applied = 0;
    while (true) {
      if (segment == null && !locate()) {
        return applied;
      }
      int read;
      try {
        read = readSegment(handler);
      } catch (FileNotFoundException renamed) {
        segment = null; // its epoch was fenced (renamed) meanwhile: find it again
        continue;
      }
      applied += read;
      if (next > limit) {
        segment = null; // this epoch's part of the history is read
        continue;
      }
      if (read == 0) {
        if (!laterSegmentExists()) {
          return applied;
        }
        // A later segment exists, so this one is closed: read its last bytes, then move on.
        try {
          applied += readSegment(handler);
        } catch (FileNotFoundException renamed) {
          // found again below
        }
        segment = null;
      }
    }
  }

  /** The record with sequence {@code after + 1} if the history has it now, else null. */
  JournalRecord peek() throws IOException {
    JournalRecord[] found = {null};
    long saved = next;
    try {
      poll(new Handler() {
        @Override
        public void apply(JournalRecord r) throws IOException {
          found[0] = r;
          throw new Stop();
        }
      });
    } catch (Stop stop) {
      // one record is all we wanted
    }
    next = saved;
    segment = null;
    return found[0];
  }

  private static final class Stop extends IOException {
    Stop() {
      super(null, null);
    }
  }

  private List<Epoch> history() throws IOException {
    List<Epoch> out = new ArrayList<>();
    for (JournalLayout.EpochDir d : layout.epochs()) {
      List<JournalLayout.Segment> segs = layout.segments(d.path());
      if (!segs.isEmpty()) {
        out.add(new Epoch(d.epoch(), segs));
      }
    }
    return out;
  }

  /** Finds the segment holding {@code next}; false when the history has nothing there yet. */
  private boolean locate() throws IOException {
    List<Epoch> epochs = history();
    if (epochs.isEmpty()) {
      return false;
    }
    if (next < epochs.get(0).start()) {
      throw new HistoryGone("The journal starts at " + epochs.get(0).start() + ", after " + next);
    }
    int i = epochs.size() - 1;
    while (i > 0 && epochs.get(i).start() > next) {
      i--;
    }
    // Epochs that started at the same sequence: the last one is the history.
    while (i + 1 < epochs.size() && epochs.get(i + 1).start() <= next) {
      i++;
    }
    Epoch e = epochs.get(i);
    JournalLayout.Segment chosen = e.segments().get(0);
    for (JournalLayout.Segment s : e.segments()) {
      if (s.firstSeq() <= next) {
        chosen = s;
      }
    }
    segment = chosen.path();
    segmentEpoch = e.epoch();
    offset = 0;
    limit = i + 1 < epochs.size() ? epochs.get(i + 1).start() - 1 : Long.MAX_VALUE;
    return true;
  }

  private boolean laterSegmentExists() throws IOException {
    for (Epoch e : history()) {
      if (e.epoch() > segmentEpoch) {
        return true;
      }
      if (e.epoch() == segmentEpoch) {
        for (JournalLayout.Segment s : e.segments()) {
          if (s.firstSeq() > firstSeqOf(segment)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static long firstSeqOf(Path segment) {
    return Long.parseLong(segment.getName().substring(4));
  }

  /** Reads the whole records from {@link #offset} on; returns how many it applied. */
  private int readSegment(Handler handler) throws IOException {
    int applied = 0;
    try (FSDataInputStream raw = layout.fs().open(segment)) {
      try {
        raw.seek(offset);
      } catch (java.io.EOFException shorter) {
        // The segment looks shorter than what this cursor already read: an open segment's visible
        // length comes from one of its replicas, and another may lag behind for a moment (a standby
        // stepping down met this in the chaos round and exited). Nothing new yet: read on next time.
        return 0;
      }
      DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(raw, 1 << 16));
      while (next <= limit) {
        JournalRecord.Read r = JournalRecord.read(in);
        if (!(r instanceof JournalRecord.Whole whole)) {
          break; // the end of what is written (or a torn tail a successor's segment supersedes)
        }
        JournalRecord record = whole.record();
        if (record.epoch() != segmentEpoch) {
          throw new IOException("Journal segment " + segment + " holds a record of epoch " + record.epoch());
        }
        if (record.seq() > next) {
          if (record.seq() > limit) {
            break;
          }
          throw new IOException("Journal gap: expected record " + next + ", found " + record.seq() + " in " + segment);
        }
        if (record.seq() == next) {
          handler.apply(record);
          next++;
          applied++;
        }
        offset += whole.bytes();
      }
    }
    return applied;
  }
}
