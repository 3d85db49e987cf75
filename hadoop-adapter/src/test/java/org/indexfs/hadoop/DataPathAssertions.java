package org.indexfs.hadoop;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/** Waiting for background work (reclamation, recovery) with a deadline, instead of sleeping. */
final class DataPathAssertions {
  private DataPathAssertions() {}

  interface Condition {
    boolean holds() throws Exception;
  }

  static void eventually(Condition condition, String what) throws Exception {
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (!condition.holds()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("Timed out after 60 s waiting until " + what);
      }
      Thread.sleep(50);
    }
  }

  static List<LocatedFileStatus> located(FileSystem fs, Path dir) throws Exception {
    List<LocatedFileStatus> out = new ArrayList<>();
    RemoteIterator<LocatedFileStatus> it = fs.listLocatedStatus(dir);
    while (it.hasNext()) {
      out.add(it.next());
    }
    return out;
  }
}
