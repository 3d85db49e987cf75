package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.indexfs.client.admin.AdminClient;
import org.indexfs.client.admin.FsckCheck;
import org.indexfs.client.admin.FsckProblem;
import org.indexfs.client.admin.FsckSource;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.giga.GigaIndex;
import org.indexfs.common.schema.NameHash;
import org.indexfs.proto.FsckPage;
import org.indexfs.proto.SafeModeRequest;
import org.indexfs.server.FaultPoints;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Safe mode is quiet (issue 37): a GIGA+ split still running when safe mode begins ends before the
 * admin client's ENTER returns, and none starts afterwards, so fsck — which reads every slot's
 * records, then every slot's entries — never sees a split half done. Without the fence, the
 * receiver's ingest landing between those two reads was reported as
 * {@code MISPLACED_ENTRY: N entries of /d are on slot k, which holds no partition of it}
 * (what {@code RoutingCodesNeverLeakTest} hit once in 31 rounds, on a directory in the trash).
 */
class SafeModeSplitFenceTest {
  @TempDir
  Path workDir;

  @AfterEach
  void noHook() {
    FaultPoints.install(null);
  }

  @Test
  void fsckInSafeModeNeverSeesASplitHalfDone() throws Exception {
    CountDownLatch held = new CountDownLatch(1);
    CountDownLatch go = new CountDownLatch(1);
    CountDownLatch ingested = new CountDownLatch(1);
    AtomicBoolean armed = new AtomicBoolean();
    // One split is held after shipping its SST file, before its receiver is asked to ingest it. It
    // goes on when a slot entering safe mode waits for it (the fence), or — without the fence —
    // once fsck has read every slot's records and before it reads their entries.
    FaultPoints.install(point -> {
      switch (point) {
        case "split.shipped" -> {
          if (armed.compareAndSet(true, false)) {
            held.countDown();
            await(go, "the held split to be let go");
          }
        }
        case "split.awaited" -> go.countDown();
        case "split.ingested" -> ingested.countDown();
        default -> { }
      }
    });
    try (LocalCluster cluster = LocalCluster.builder(workDir).clusterName("safefence").servers(2)
        .set(IndexFsConfig.SPLIT_THRESHOLD.name(), "2")
        .set(IndexFsConfig.WAL_SYNC.name(), "false").start();
        IndexFsClient client = Slots.client(cluster, TestData.USER, List.of())) {
      client.mkdirs("/d", 0755);
      // Three names, two of which move to the new partition: the third insert splits /d.
      List<String> names = namesMovingToPartitionOne(2, 1);
      armed.set(true);
      for (String name : names) {
        TestData.createClosed(client, "/d/" + name);
      }
      assertTrue(held.await(30, TimeUnit.SECONDS), "the split of /d reaches its receiver's call");
      AdminClient admin = new AdminClient(client);
      admin.safeMode(SafeModeRequest.Action.ENTER);
      try {
        FsckSource slots = FsckSource.of(admin, slot -> Map.of());
        FsckSource lettingTheSplitGoAfterRecords = new FsckSource() {
          @Override
          public int slots() throws IOException {
            return slots.slots();
          }

          @Override
          public FsckPage meta(int slot) throws IOException {
            FsckPage page = slots.meta(slot);
            if (slot == slots.slots() - 1) {
              go.countDown();
              await(ingested, "the receiver to ingest the split");
            }
            return page;
          }

          @Override
          public FsckPage entries(int slot, ByteString cursor) throws IOException {
            return slots.entries(slot, cursor);
          }

          @Override
          public FsckPage strayNames(int slot, ByteString cursor) throws IOException {
            return slots.strayNames(slot, cursor);
          }

          @Override
          public Map<String, Long> objects(int slot) {
            return Map.of();
          }
        };
        List<FsckProblem> problems = FsckCheck.run(lettingTheSplitGoAfterRecords).problems();
        assertEquals(List.of(), problems, "fsck in safe mode, a split having been under way when it began");
      } finally {
        admin.safeMode(SafeModeRequest.Action.LEAVE);
      }
      // The split itself completed: both slots hold a partition of /d, and every name is listed once.
      assertEquals(names.size(), client.listAll("/d").size());
    }
  }

  /**
   * {@code moving} names whose hash sends them to partition 1 of a split directory, then
   * {@code staying} that stay: the last insert (the one that splits) is not frozen by its split.
   */
  private static List<String> namesMovingToPartitionOne(int moving, int staying) {
    List<String> moves = new ArrayList<>();
    List<String> stays = new ArrayList<>();
    for (int i = 0; moves.size() < moving || stays.size() < staying; i++) {
      String name = "f" + i;
      List<String> side = GigaIndex.movesTo(NameHash.of(name), 1) ? moves : stays;
      if (side.size() < (side == moves ? moving : staying)) {
        side.add(name);
      }
    }
    moves.addAll(stays);
    return moves;
  }

  private static void await(CountDownLatch latch, String what) {
    try {
      if (!latch.await(30, TimeUnit.SECONDS)) {
        throw new AssertionError("timed out waiting for " + what);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted waiting for " + what, e);
    }
  }
}
