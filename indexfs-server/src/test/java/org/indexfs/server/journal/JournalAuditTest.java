package org.indexfs.server.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The journal audit on journals laid out by hand on a real local file system: one history passes;
 * a fenced writer's record past its successor's start, a gap inside an epoch and records missing
 * between epochs are each reported.
 */
class JournalAuditTest {
  @TempDir
  java.nio.file.Path dir;
  FileSystem fs;
  String dataUri;
  JournalLayout layout;

  @BeforeEach
  void setUp() throws IOException {
    fs = FileSystem.getLocal(new Configuration()).getRaw();
    dataUri = dir.toUri().toString();
    layout = new JournalLayout(fs, new Path(dataUri + "/.journal/0"));
  }

  /** A segment of {@code epoch}'s directory holding records {@code seqs} (in the order given). */
  private void segment(long epoch, boolean fenced, long firstSeq, long... seqs) throws IOException {
    Path epochDir = fenced ? layout.fencedDir(epoch) : layout.liveDir(epoch);
    try (FSDataOutputStream out = fs.create(JournalLayout.segment(epochDir, firstSeq))) {
      for (long s : seqs) {
        out.write(new JournalRecord(epoch, s, JournalRecord.BATCH, new byte[] {1, 2, 3}).encode());
      }
    }
  }

  @Test
  void oneHistoryAcrossTwoFencedWritersPasses() throws IOException {
    segment(1, true, 1, 1, 2, 3);
    segment(1, true, 4, 4, 5);
    segment(2, true, 6, 6, 7);
    segment(3, false, 8, 8);
    JournalAudit.Result r = JournalAudit.audit(fs, dataUri, 0);
    assertEquals(List.of(), r.violations());
    assertEquals(List.of(new JournalAudit.EpochSpan(1, 1, 5, 5, true), new JournalAudit.EpochSpan(2, 6, 7, 2, true),
        new JournalAudit.EpochSpan(3, 8, 8, 1, false)), r.epochs());
  }

  @Test
  void aRecordAppendedByAFencedWriterAfterItsSuccessorBeganIsReported() throws IOException {
    segment(1, true, 1, 1, 2, 3);
    segment(2, false, 3, 3, 4);
    JournalAudit.Result r = JournalAudit.audit(fs, dataUri, 0);
    assertEquals(List.of("epoch 1 appended records up to 3 after epoch 2 began at 3"), r.violations());
  }

  @Test
  void gapsInsideAnEpochAndBetweenEpochsAreReported() throws IOException {
    segment(1, true, 1, 1, 3);
    segment(2, false, 6, 6);
    JournalAudit.Result r = JournalAudit.audit(fs, dataUri, 0);
    assertEquals(2, r.violations().size(), r.violations().toString());
    assertTrue(r.violations().get(0).contains("holds record 3@e1 where 2@e1 belongs"), r.violations().get(0));
    assertEquals("records 4..5 are in no epoch (between 1 and 2)", r.violations().get(1));
  }

  @Test
  void aSuccessorOfAnUnfencedWriterIsReported() throws IOException {
    segment(1, false, 1, 1);
    segment(2, false, 2, 2);
    assertEquals(List.of("epoch 1 was not fenced, yet epoch 2 wrote"), JournalAudit.audit(fs, dataUri, 0).violations());
  }
}
