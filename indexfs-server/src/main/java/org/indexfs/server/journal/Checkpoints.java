package org.indexfs.server.journal;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.indexfs.server.store.LogPosition;
import org.indexfs.server.store.MetadataStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * RocksDB checkpoints of a slot on the data tier (DESIGN §11): they bound replay — the journal
 * before the oldest kept checkpoint is deleted — and a new standby starts from the latest one.
 * A checkpoint is published only once every change it holds is durable in the journal, and only
 * complete ones (with their {@value #DONE} marker) are ever read.
 */
final class Checkpoints {
  static final String DONE = "_DONE";
  private static final Logger LOG = LoggerFactory.getLogger(Checkpoints.class);

  private final JournalLayout layout;
  private final int kept;

  Checkpoints(JournalLayout layout, int kept) {
    this.layout = layout;
    this.kept = Math.max(1, kept);
  }

  /**
   * Checkpoints {@code store}, waits until the journal holds everything in it ({@code writer.sync}),
   * uploads it and deletes what the kept checkpoints make unnecessary; returns its position.
   */
  LogPosition publish(MetadataStore store, JournalWriter writer) throws IOException {
    java.nio.file.Path local = Files.createTempDirectory("indexfs-checkpoint-");
    Files.delete(local);
    try {
      LogPosition at = store.checkpoint(local);
      writer.sync();
      if (writer.durableUpTo() < at.seq()) {
        throw new IOException("The journal is not durable up to checkpoint " + at);
      }
      Path target = layout.checkpoint(at.seq());
      if (layout.checkpointSeqs().contains(at.seq())) {
        return at;
      }
      FileSystem fs = layout.fs();
      Path partial = new Path(target.getParent(), target.getName() + ".tmp");
      fs.delete(partial, true);
      fs.mkdirs(partial);
      try (var files = Files.list(local)) {
        for (java.nio.file.Path f : (Iterable<java.nio.file.Path>) files::iterator) {
          fs.copyFromLocalFile(false, true, new Path(f.toUri()), new Path(partial, f.getFileName().toString()));
        }
      }
      fs.create(new Path(partial, DONE), false).close();
      if (!fs.rename(partial, target)) {
        throw new IOException("Could not publish checkpoint " + target);
      }
      LOG.info("Checkpoint of {} published at {}", at, target);
      collect();
      return at;
    } finally {
      deleteLocal(local);
    }
  }

  /** The latest complete checkpoint's sequence, or -1. */
  long latest() throws IOException {
    List<Long> seqs = layout.checkpointSeqs();
    return seqs.isEmpty() ? -1 : seqs.get(seqs.size() - 1);
  }

  /** Copies checkpoint {@code seq} into {@code dir} (which must not exist): a store to open there. */
  void download(long seq, java.nio.file.Path dir) throws IOException {
    Files.createDirectories(dir);
    FileSystem fs = layout.fs();
    for (FileStatus s : fs.listStatus(layout.checkpoint(seq))) {
      if (s.isFile() && !s.getPath().getName().equals(DONE)) {
        fs.copyToLocalFile(false, s.getPath(), new Path(dir.resolve(s.getPath().getName()).toUri()), true);
      }
    }
  }

  /**
   * Deletes checkpoints beyond the {@code kept} newest, and the journal they make unnecessary:
   * segments whose every record is at or below the oldest kept checkpoint, emptied epoch
   * directories, and SST files of those records.
   */
  private void collect() throws IOException {
    FileSystem fs = layout.fs();
    List<Long> seqs = layout.checkpointSeqs();
    while (seqs.size() > kept) {
      fs.delete(layout.checkpoint(seqs.remove(0)), true);
    }
    long covered = seqs.get(0);
    List<JournalLayout.EpochDir> epochs = layout.epochs();
    JournalLayout.Segment previous = null;
    for (JournalLayout.EpochDir e : epochs) {
      for (JournalLayout.Segment s : layout.segments(e.path())) {
        // A segment ends where the next one (of its epoch or a later one) starts.
        if (previous != null && s.firstSeq() - 1 <= covered) {
          fs.delete(previous.path(), false);
        }
        previous = s;
      }
    }
    for (JournalLayout.EpochDir e : epochs) {
      if (e.fenced() && layout.segments(e.path()).isEmpty()) {
        fs.delete(e.path(), true);
      }
    }
    for (FileStatus s : listOrNone(layout.ssts())) {
      String n = s.getPath().getName();
      boolean old = n.startsWith("tmp-") ? s.getModificationTime() < System.currentTimeMillis() - 3_600_000
          : Long.parseLong(n.substring(0, n.indexOf('.'))) <= covered;
      if (old) {
        fs.delete(s.getPath(), false);
      }
    }
  }

  private FileStatus[] listOrNone(Path dir) throws IOException {
    try {
      return layout.fs().listStatus(dir);
    } catch (java.io.FileNotFoundException none) {
      return new FileStatus[0];
    }
  }

  static void deleteLocal(java.nio.file.Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (var walk = Files.walk(dir)) {
      walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      LOG.warn("Could not delete {}: {}", dir, e.toString());
    }
  }
}
