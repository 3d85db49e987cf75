package org.indexfs.client.bulk;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * Names published keep saying "maybe" (never a false "no"), and names never published keep saying
 * "no" with at most 1 % errors, even at twenty times the size the filter started with — where a
 * single filter of that size answers "maybe" to nearly everything.
 */
class PublishedNamesTest {
  private static byte[] key(long i) {
    return ByteBuffer.allocate(24).putLong(1_000).putLong(i * 0x9E3779B97F4A7C15L).putLong(i).array();
  }

  @Test
  void staysAccurateFarPastItsFirstSize() {
    int first = 10_000;
    int published = 20 * first;
    PublishedNames names = new PublishedNames(first);
    for (long i = 0; i < published; i++) {
      names.put(key(i));
    }
    for (long i = 0; i < published; i++) {
      assertTrue(names.mightContain(key(i)), "published name " + i + " must never be reported absent");
    }
    int wrong = 0;
    int probes = 200_000;
    for (long i = published; i < published + probes; i++) {
      if (names.mightContain(key(i))) {
        wrong++;
      }
    }
    double rate = wrong / (double) probes;
    assertTrue(rate <= PublishedNames.FPP, "false-positive rate " + rate + " with " + names.filterCount() + " filters");
    // What one filter sized for the first names does at this size: the reason for growing.
    com.google.common.hash.BloomFilter<byte[]> single = com.google.common.hash.BloomFilter.create(
        com.google.common.hash.Funnels.byteArrayFunnel(), first, PublishedNames.FPP);
    for (long i = 0; i < published; i++) {
      single.put(key(i));
    }
    int singleWrong = 0;
    for (long i = published; i < published + probes; i++) {
      if (single.mightContain(key(i))) {
        singleWrong++;
      }
    }
    assertTrue(singleWrong / (double) probes > 0.5, "a fixed filter saturates: " + singleWrong / (double) probes);
  }
}
