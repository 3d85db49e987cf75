package org.indexfs.server.journal;

import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Reads a slot's journal as it lies on the data tier and checks that the fence held (IndexFS
 * §II-E; DESIGN §11): within each epoch the records are whole and in sequence, and every record
 * of an epoch lies below the sequence its successor started at. A record of an old epoch at or
 * past that sequence is one its writer appended after the new writer began: with acknowledgement
 * after the journal append, an answer the namespace does not have. The chaos round runs it on
 * every slot; it reads only, so it can run beside the cluster.
 */
public final class JournalAudit {
  /** What one epoch wrote: its first and last sequence, how many records, whether it was fenced. */
  public record EpochSpan(long epoch, long first, long last, long records, boolean fenced) {}

  /** The epochs in order, and every broken rule found (empty: the journal is one history). */
  public record Result(List<EpochSpan> epochs, List<String> violations) {
    public boolean clean() {
      return violations.isEmpty();
    }
  }

  private JournalAudit() {}

  /** Audits slot {@code slot}'s journal under {@code dataUri} (the servers' indexfs.data.uri). */
  public static Result audit(FileSystem fs, String dataUri, int slot) throws IOException {
    JournalLayout layout = new JournalLayout(fs, new Path(dataUri + "/.journal/" + slot));
    List<EpochSpan> spans = new ArrayList<>();
    List<String> violations = new ArrayList<>();
    for (JournalLayout.EpochDir dir : layout.epochs()) {
      List<JournalLayout.Segment> segments = layout.segments(dir.path());
      if (segments.isEmpty()) {
        continue;
      }
      long first = segments.get(0).firstSeq();
      long next = first;
      long records = 0;
      for (int i = 0; i < segments.size(); i++) {
        JournalLayout.Segment s = segments.get(i);
        if (s.firstSeq() != next) {
          violations.add("epoch " + dir.epoch() + ": segment " + s.path().getName() + " starts at " + s.firstSeq()
              + ", expected " + next);
          next = s.firstSeq();
        }
        try (FSDataInputStream raw = fs.open(s.path())) {
          DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(raw, 1 << 16));
          while (true) {
            JournalRecord.Read r = JournalRecord.read(in);
            if (r instanceof JournalRecord.Whole whole) {
              JournalRecord rec = whole.record();
              if (rec.epoch() != dir.epoch() || rec.seq() != next) {
                violations.add("epoch " + dir.epoch() + ": " + s.path().getName() + " holds record " + rec.seq()
                    + "@e" + rec.epoch() + " where " + next + "@e" + dir.epoch() + " belongs");
              }
              next = rec.seq() + 1;
              records++;
            } else {
              // The end of what is written; a torn or cut record may end only an epoch's last segment
              // (a writer that died or was fenced mid-append).
              if (r instanceof JournalRecord.Torn torn && i < segments.size() - 1) {
                violations.add("epoch " + dir.epoch() + ": " + s.path().getName() + " is torn (" + torn.why()
                    + ") before its epoch's later segments");
              }
              break;
            }
          }
        }
      }
      spans.add(new EpochSpan(dir.epoch(), first, next - 1, records, dir.fenced()));
    }
    for (int i = 0; i + 1 < spans.size(); i++) {
      EpochSpan old = spans.get(i);
      EpochSpan successor = spans.get(i + 1);
      if (old.last() >= successor.first()) {
        violations.add("epoch " + old.epoch() + " appended records up to " + old.last() + " after epoch "
            + successor.epoch() + " began at " + successor.first());
      } else if (old.last() + 1 < successor.first()) {
        violations.add("records " + (old.last() + 1) + ".." + (successor.first() - 1) + " are in no epoch (between "
            + old.epoch() + " and " + successor.epoch() + ")");
      }
      if (!old.fenced()) {
        violations.add("epoch " + old.epoch() + " was not fenced, yet epoch " + successor.epoch() + " wrote");
      }
    }
    return new Result(spans, violations);
  }
}
