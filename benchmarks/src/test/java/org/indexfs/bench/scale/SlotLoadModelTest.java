package org.indexfs.bench.scale;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import org.indexfs.common.giga.GigaIndex;
import org.indexfs.common.giga.PartitionBitmap;
import org.indexfs.common.schema.NameHash;
import org.junit.jupiter.api.Test;

class SlotLoadModelTest {
  private static SlotLoadModel model(int slots, boolean splitting, int threshold) {
    return new SlotLoadModel(new SlotLoadModel.Settings(slots, splitting, threshold, 1_000, 7));
  }

  @Test
  void maxOverMeanIsOneWhenEvenAndNWhenAllOnOneSlot() {
    assertThat(SlotLoadModel.maxOverMean(new long[] {5, 5, 5, 5})).isEqualTo(1.0);
    assertThat(SlotLoadModel.maxOverMean(new long[] {0, 12, 0, 0})).isEqualTo(4.0);
    assertThat(SlotLoadModel.maxOverMean(new long[] {1, 3})).isEqualTo(1.5);
    assertThat(SlotLoadModel.maxOverMean(new long[] {0, 0, 0})).isEqualTo(1.0);
  }

  @Test
  void withoutSplittingASharedDirectoryPutsEveryOperationOnOneSlot() {
    SlotLoadModel m = model(8, false, 100);
    for (int i = 0; i < 1000; i++) {
      m.create("/shared/f" + i);
    }
    SlotLoadModel.Result r = m.result();
    assertThat(Arrays.stream(r.operations()).sum()).isEqualTo(1000);
    assertThat(r.operationImbalance()).isEqualTo(8.0);
    assertThat(r.splits()).isZero();
  }

  @Test
  void splittingSpreadsABigDirectoryOverEverySlotAndNoFurther() {
    SlotLoadModel m = model(8, true, 100);
    for (int i = 0; i < 4000; i++) {
      m.create("/shared/f" + i);
    }
    SlotLoadModel.Result r = m.result();
    // 7 splits make the 8 partitions 0..7, one per slot; beyond that nextChild refuses.
    assertThat(r.splits()).isEqualTo(7);
    assertThat(Arrays.stream(r.entries()).allMatch(e -> e > 0)).isTrue();
    assertThat(Arrays.stream(r.entries()).sum()).isEqualTo(4001); // the files and /shared itself
    assertThat(r.entryImbalance()).isLessThan(1.5);
  }

  @Test
  void entriesSitWherePartitionMathPutsThem() {
    // After the directory spans all 4 slots, a name's slot is (zeroth + partitionOf(hash)) mod 4.
    SlotLoadModel m = model(4, true, 10);
    for (int i = 0; i < 400; i++) {
      m.create("/d/f" + i);
    }
    PartitionBitmap full = PartitionBitmap.initial();
    for (int p = 1; p < 4; p++) {
      full.add(p);
    }
    long[] before = m.result().operations().clone();
    m.touch("/d/f17");
    long[] after = m.result().operations();
    int slotOfPartition0 = -1;
    for (int s = 0; s < 4; s++) {
      if (after[s] != before[s]) {
        slotOfPartition0 = Math.floorMod(s - GigaIndex.partitionOf(NameHash.of("f17"), full), 4);
      }
    }
    // Every other name agrees on the same zeroth slot.
    for (String name : new String[] {"f1", "f2", "f99", "f250"}) {
      long[] b = m.result().operations().clone();
      m.touch("/d/" + name);
      long[] a = m.result().operations();
      int expected = GigaIndex.slotOf(slotOfPartition0, GigaIndex.partitionOf(NameHash.of(name), full), 4);
      assertThat(a[expected]).as(name).isEqualTo(b[expected] + 1);
    }
  }

  @Test
  void powerOfTwoChoicesSpreadsPrivateDirectoriesEvenly() {
    SlotLoadModel m = model(16, false, 2000);
    for (int d = 0; d < 256; d++) {
      m.mkdir("/bench/t" + d);
      for (int i = 0; i < 50; i++) {
        m.create("/bench/t" + d + "/f" + i);
      }
    }
    // Random placement would leave the fullest of 16 slots around 1.5x the mean; p2c does better.
    assertThat(m.result().entryImbalance()).isLessThan(1.3);
  }

  @Test
  void renameMovesAnEntryAndCountsBothSlots() {
    SlotLoadModel m = model(2, false, 2000);
    m.mkdir("/a");
    m.mkdir("/b");
    m.create("/a/x");
    long opsBefore = Arrays.stream(m.result().operations()).sum();
    m.rename("/a/x", "/b/y");
    m.rename("/a", "/a/inside"); // into its own subtree: refused, counted once
    SlotLoadModel.Result r = m.result();
    long opsAdded = Arrays.stream(r.operations()).sum() - opsBefore;
    assertThat(opsAdded).isBetween(2L, 3L);
    assertThat(Arrays.stream(r.entries()).sum()).isEqualTo(3); // a, b, x at the peak
    m.delete("/b");
    assertThat(m.result().directories()).isEqualTo(2); // the root and /a
  }

  @Test
  void mdtestWorkloadEndsEmptyAndReportsItsPeak() throws Exception {
    SlotLoadModel m = model(8, true, 100);
    BalancePrediction.Workload w = BalancePrediction.mdtest(true, 4, 500);
    AtomicLong progress = new AtomicLong();
    w.feed(m, progress);
    assertThat(progress.get()).isEqualTo(w.calls());
    SlotLoadModel.Result r = m.result();
    assertThat(Arrays.stream(r.entries()).sum()).isEqualTo(2002); // 2,000 files, /bench and /bench/shared at the peak
    assertThat(r.largestDirectory()).isEqualTo(2000);
  }

  @Test
  void aChangeInADirectoryHomedAwayFromItsEntryCallsTheEntrysSlot() {
    SlotLoadModel m = model(2, false, 2000);
    int away = 0;
    for (int d = 0; d < 40; d++) {
      m.mkdir("/d" + d); // every /dN's entry is in the root's partition: slot 0
      long[] ops = m.result().operations().clone();
      long[] calls = m.result().peerCalls().clone();
      m.create("/d" + d + "/f");
      long[] opsAfter = m.result().operations();
      long[] callsAfter = m.result().peerCalls();
      boolean homedAway = opsAfter[1] > ops[1]; // the file went to its directory's home, slot 1
      away += homedAway ? 1 : 0;
      // Its mtime is raised where its entry lives (slot 0): a call between slots only if that is elsewhere.
      assertThat(callsAfter[0] - calls[0]).as("/d%d", d).isEqualTo(homedAway ? 1 : 0);
      assertThat(callsAfter[1] - calls[1]).isZero();
    }
    assertThat(away).as("power of two choices homes some directories on the other slot").isPositive();
  }

  @Test
  void mkdirsOfAChainKeepsTheChainOnTheSlotThatReceivesIt() {
    SlotLoadModel m = model(8, false, 2000);
    m.mkdirs("/bench/a/b/c/shared"); // all missing: one call, every new directory on root's slot 0
    long[] ops = m.result().operations().clone();
    m.create("/bench/a/b/c/shared/f");
    long[] after = m.result().operations();
    assertThat(after[0]).isEqualTo(ops[0] + 1);
    assertThat(Arrays.stream(m.result().peerCalls()).sum()).as("the directory's entry is where it lives").isZero();
    // One more level under an existing parent is placed by power of two choices, as a mkdir.
    for (int d = 0; d < 32; d++) {
      m.mkdirs("/bench/a/b/c/t" + d);
    }
    assertThat(m.result().directories()).isEqualTo(1 + 5 + 32);
  }
}
