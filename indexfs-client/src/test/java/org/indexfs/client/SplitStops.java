package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.indexfs.proto.FileStatus;
import org.indexfs.server.FaultPoints;
import org.indexfs.server.local.LocalCluster;

/** A GIGA+ split stopped at one of its phases, and the check that it then ended exactly once (tests of faults). */
final class SplitStops {
  private SplitStops() {}

  /**
   * Creates {@code dir/f0, f1, …} until the split they cause reaches {@code point}, where it stops
   * (an exception thrown there, once); returns how many files were created.
   */
  static int createUntilStopped(IndexFsClient client, String dir, String point) throws IOException {
    AtomicBoolean fired = new AtomicBoolean();
    FaultPoints.install(p -> {
      if (p.equals(point) && fired.compareAndSet(false, true)) {
        throw new IllegalStateException("injected stop at " + point);
      }
    });
    int files = 0;
    try {
      while (!fired.get() && files < 2_000) {
        TestData.createClosed(client, dir + "/f" + files);
        files++;
      }
    } finally {
      FaultPoints.install(null);
    }
    assertTrue(fired.get(), "the split reached " + point);
    return files;
  }

  /** {@code dir} (id {@code dirId}) holds {@code f0 … f<files-1>}, each listed, found and stored exactly once across two slots. */
  static void assertEachNameOnce(LocalCluster cluster, IndexFsClient client, String dir, long dirId, int files)
      throws IOException {
    Set<String> names = new HashSet<>();
    List<FileStatus> listed = client.listAll(dir);
    listed.forEach(s -> names.add(s.getName()));
    assertEquals(files, listed.size(), "listed once each");
    assertEquals(files, names.size());
    for (int i = 0; i < files; i++) {
      assertEquals("f" + i, client.getFileStatus(dir + "/f" + i).getName());
    }
    assertEquals(files, Slots.entriesOn(cluster, 0, dirId) + Slots.entriesOn(cluster, 1, dirId),
        "stored exactly once across the slots");
  }
}
