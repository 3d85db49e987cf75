package org.indexfs.server.placement;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;

/** The power of two choices, as the servers place new directories. */
class PlacementChoiceTest {
  @Test
  void withTwoSlotsTheFullerOneIsStillChosenSometimes() {
    // Slot 0 holds the root: every top-level mkdir adds an entry there, whichever slot homes it.
    AtomicLongArray loads = new AtomicLongArray(new long[] {1_000_000, 0});
    SplittableRandom random = new SplittableRandom(42);
    int[] chosen = new int[2];
    for (int i = 0; i < 400; i++) {
      chosen[Placement.choose(loads, random)]++;
    }
    assertTrue(chosen[0] > 50, "the fuller slot is chosen when both draws name it: " + chosen[0] + " of 400");
    assertTrue(chosen[1] > chosen[0], "the emptier slot is still preferred: " + chosen[1] + " vs " + chosen[0]);
  }

  @Test
  void withManySlotsTheEmptierWins() {
    AtomicLongArray loads = new AtomicLongArray(16);
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 16_000; i++) {
      Placement.choose(loads, random);
    }
    long min = Long.MAX_VALUE;
    long max = 0;
    for (int s = 0; s < 16; s++) {
      min = Math.min(min, loads.get(s));
      max = Math.max(max, loads.get(s));
    }
    assertTrue(max - min <= 8, "two choices keep 16 slots within a few directories: " + min + ".." + max);
  }
}
