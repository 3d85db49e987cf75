package org.indexfs.hadoop;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.apache.hadoop.fs.Path;
import org.indexfs.server.local.LocalCluster;

/** Reproducible test bytes that never sit in memory all at once, and helpers to find objects. */
final class TestData {
  private static final int CHUNK = 1 << 20;

  private TestData() {}

  /** {@code length} bytes from {@code seed}, written in 1 MiB chunks. */
  static void write(OutputStream out, long seed, long length) throws IOException {
    SplittableRandom random = new SplittableRandom(seed);
    byte[] chunk = new byte[CHUNK];
    for (long done = 0; done < length; done += CHUNK) {
      fill(random, chunk);
      out.write(chunk, 0, (int) Math.min(CHUNK, length - done));
    }
  }

  static byte[] bytes(long seed, int length) {
    byte[] b = new byte[length];
    new SplittableRandom(seed).nextBytes(b);
    return b;
  }

  /** Reads {@code in} to its end and checks it is exactly the bytes {@link #write} produced. */
  static void verify(InputStream in, long seed, long length) throws IOException {
    SplittableRandom random = new SplittableRandom(seed);
    byte[] expected = new byte[CHUNK];
    byte[] actual = new byte[CHUNK];
    for (long done = 0; done < length; done += CHUNK) {
      fill(random, expected);
      int want = (int) Math.min(CHUNK, length - done);
      int got = in.readNBytes(actual, 0, want);
      if (got != want) {
        throw new AssertionError("File ended at " + (done + got) + ", expected " + length + " bytes");
      }
      if (!Arrays.equals(expected, 0, want, actual, 0, want)) {
        int i = Arrays.mismatch(expected, 0, want, actual, 0, want);
        throw new AssertionError("Bytes differ at offset " + (done + i));
      }
    }
    if (in.read() != -1) {
      throw new AssertionError("File is longer than " + length + " bytes");
    }
  }

  /** Keeps chunk i identical whatever length is asked for, so write and verify agree. */
  private static void fill(SplittableRandom random, byte[] chunk) {
    random.nextBytes(chunk);
  }

  /** The HDFS path of a data object of {@code cluster}. */
  static Path objectPath(LocalCluster cluster, String object) {
    return new Path(cluster.dataUri() + "/" + object);
  }
}
