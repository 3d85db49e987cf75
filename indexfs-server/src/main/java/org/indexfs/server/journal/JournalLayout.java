package org.indexfs.server.journal;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Where a slot's journal lives on the data tier (DESIGN §11), {@code <data.uri>/.journal/<slot>/}:
 * <pre>
 *   e0000000007/seg-00000000000000000042   segments of the writer of epoch 7, named by first sequence
 *   f0000000006/...                         an earlier writer's segments, fenced (its directory renamed)
 *   checkpoints/c00000000000000040000/      a RocksDB checkpoint holding every change up to 40000
 *   sst/00000000000000041234.sst            an ingested SST file, named by its record's sequence
 * </pre>
 * Renaming an epoch's directory is the fence: its writer can create no segment there any more
 * (segments are created non-recursively), and on HDFS the open segment's lease is recovered.
 */
final class JournalLayout {
  /** One epoch's directory: live ({@code e}) or fenced ({@code f}). */
  record EpochDir(long epoch, Path path, boolean fenced) {}

  /** One segment: the sequence of its first record and its path. */
  record Segment(long firstSeq, Path path) {}

  private final FileSystem fs;
  private final Path root;

  JournalLayout(FileSystem fs, Path root) {
    this.fs = fs;
    this.root = root;
  }

  FileSystem fs() {
    return fs;
  }

  Path root() {
    return root;
  }

  Path liveDir(long epoch) {
    return new Path(root, String.format("e%010d", epoch));
  }

  Path fencedDir(long epoch) {
    return new Path(root, String.format("f%010d", epoch));
  }

  static Path segment(Path epochDir, long firstSeq) {
    return new Path(epochDir, String.format("seg-%020d", firstSeq));
  }

  Path checkpoints() {
    return new Path(root, "checkpoints");
  }

  Path checkpoint(long seq) {
    return new Path(checkpoints(), String.format("c%020d", seq));
  }

  Path ssts() {
    return new Path(root, "sst");
  }

  Path sst(long seq) {
    return new Path(ssts(), String.format("%020d.sst", seq));
  }

  /** Every epoch directory, oldest first. */
  List<EpochDir> epochs() throws IOException {
    List<EpochDir> out = new ArrayList<>();
    for (FileStatus s : list(root)) {
      String n = s.getPath().getName();
      if (s.isDirectory() && n.length() == 11 && (n.charAt(0) == 'e' || n.charAt(0) == 'f')) {
        out.add(new EpochDir(Long.parseLong(n.substring(1)), s.getPath(), n.charAt(0) == 'f'));
      }
    }
    out.sort(Comparator.comparingLong(EpochDir::epoch));
    return out;
  }

  /** The segments of one epoch's directory, in order. */
  List<Segment> segments(Path epochDir) throws IOException {
    List<Segment> out = new ArrayList<>();
    for (FileStatus s : list(epochDir)) {
      String n = s.getPath().getName();
      if (s.isFile() && n.startsWith("seg-")) {
        out.add(new Segment(Long.parseLong(n.substring(4)), s.getPath()));
      }
    }
    out.sort(Comparator.comparingLong(Segment::firstSeq));
    return out;
  }

  /** The sequences of the complete checkpoints, oldest first. */
  List<Long> checkpointSeqs() throws IOException {
    List<Long> out = new ArrayList<>();
    for (FileStatus s : list(checkpoints())) {
      String n = s.getPath().getName();
      if (s.isDirectory() && n.startsWith("c") && n.length() == 21 && fs.exists(new Path(s.getPath(), Checkpoints.DONE))) {
        out.add(Long.parseLong(n.substring(1)));
      }
    }
    out.sort(null);
    return out;
  }

  private FileStatus[] list(Path dir) throws IOException {
    try {
      return fs.listStatus(dir);
    } catch (FileNotFoundException none) {
      return new FileStatus[0];
    }
  }
}
