package org.indexfs.bench.mdtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The floor's raw RocksDB runs on a real RocksDB: every phase does its operations, the sync floor
 * runs only the phases that write, and each leaves no database behind.
 */
class KvBenchTest {
  @TempDir
  Path dir;

  @Test
  void theFloorRunsEveryPhaseAndTheSyncFloorTheWritingOnes() throws Exception {
    AtomicLong progress = new AtomicLong();
    Map<String, KvBench.Result> plain = KvBench.run(dir.resolve("kv"), 2, 200, progress, false);
    assertEquals(List.of("create", "stat", "list", "delete"), List.copyOf(plain.keySet()));
    Map<String, KvBench.Result> sync = KvBench.run(dir.resolve("kv-sync"), 4, 100, progress, true);
    assertEquals(List.of("create", "delete"), List.copyOf(sync.keySet()));
    for (KvBench.Result r : sync.values()) {
      assertEquals(400, r.operations(), r.op());
      assertTrue(r.opsPerSecond() > 0 && r.cpuMicrosPerOp() > 0, r.op());
    }
    assertEquals(400, plain.get("create").operations());
    // create, stat, delete: one step per key; list: every thread lists all 400 entries.
    assertEquals(3 * 400 + 2 * 400 + 2 * 400, progress.get());
    assertFalse(Files.exists(dir.resolve("kv")));
    assertFalse(Files.exists(dir.resolve("kv-sync")));
  }
}
