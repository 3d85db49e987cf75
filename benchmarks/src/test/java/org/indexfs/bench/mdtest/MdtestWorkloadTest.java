package org.indexfs.bench.mdtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.indexfs.bench.mdtest.MdtestWorkload.Phase;
import org.indexfs.bench.mdtest.MdtestWorkload.PhaseResult;
import org.indexfs.bench.mdtest.MdtestWorkload.Settings;
import org.junit.jupiter.api.Test;

/** The mdtest phases do what they say, counted, on any FileSystem (here the local one). */
class MdtestWorkloadTest {
  @Test
  void everyPhaseTouchesEveryFileOnceAndLeavesNothingBehind() throws Exception {
    java.nio.file.Path dir = Files.createTempDirectory(
        Files.createDirectories(java.nio.file.Path.of(System.getProperty("test.build.data", "target/test-data"))), "mdtest");
    FileSystem fs = FileSystem.getLocal(new Configuration()).getRawFileSystem();
    for (boolean shared : new boolean[] {true, false}) {
      Path root = new Path(dir.toUri().toString(), shared ? "shared" : "private");
      Settings settings = new Settings(3, 25, shared, 2);
      AtomicLong progress = new AtomicLong();
      List<PhaseResult> results = new MdtestWorkload(fs, root, settings, progress).runAll();
      assertEquals(List.of(Phase.values()), results.stream().map(PhaseResult::phase).toList());
      for (PhaseResult r : results) {
        // Listing: each of 3 threads lists its directory until it returned 64 x 25 entries.
        long expected = r.phase() != Phase.LIST ? 75 : shared ? 3 * 22 * 75 : 3 * 64 * 25;
        assertEquals(expected, r.operations(), r.phase() + " operations");
        assertEquals(0, r.errors(), r.phase() + " errors");
        assertEquals(r.operations(), r.micros().getTotalCount(), r.phase() + " latencies recorded");
      }
      assertFalse(fs.exists(root), "runAll removes its tree");
      assertEquals(75 * 3 + (shared ? 3 * 22 * 75 : 3 * 64 * 25), progress.get());
      assertEquals(progress.get(), MdtestWorkload.calls(settings), "the progress bar's total is what runs");
    }
  }

  @Test
  void clientsSharingAWorkloadNeverCollideAndListEachOthersFiles() throws Exception {
    java.nio.file.Path dir = Files.createTempDirectory(
        Files.createDirectories(java.nio.file.Path.of(System.getProperty("test.build.data", "target/test-data"))), "mdtest");
    FileSystem fs = FileSystem.getLocal(new Configuration()).getRawFileSystem();
    for (boolean shared : new boolean[] {true, false}) {
      Path root = new Path(dir.toUri().toString(), shared ? "shared" : "private");
      // Two processes' worth of clients (as bench cluster's client hosts), two threads of 10 files each.
      MdtestWorkload first = new MdtestWorkload(fs, root, new Settings(2, 10, shared, 1, 0, 2), new AtomicLong());
      MdtestWorkload second = new MdtestWorkload(fs, root, new Settings(2, 10, shared, 1, 1, 2), new AtomicLong());
      first.prepare();
      second.prepare();
      assertEquals(20, first.run(Phase.CREATE).operations());
      assertEquals(20, second.run(Phase.CREATE).operations(), "no file of the second is one of the first's");
      PhaseResult list = second.run(Phase.LIST);
      assertEquals(0, list.errors(), "a shared directory lists every client's files; a private one its own");
      assertEquals(0, first.run(Phase.STAT).errors());
      assertEquals(0, second.run(Phase.DELETE).errors());
      assertEquals(0, first.run(Phase.DELETE).errors());
      first.cleanUp();
      assertFalse(fs.exists(root));
    }
  }
}
