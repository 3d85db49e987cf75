package org.indexfs.bench.mdtest;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/** {@code bin/indexfs bench kv}: raw RocksDB alone (compare runs it too, in the same run). */
public final class KvMain {
  private KvMain() {}

  public static void main(String[] args) throws Exception {
    int threads = 16;
    int keys = 20_000;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--threads" -> threads = Integer.parseInt(args[++i]);
        case "--keys" -> keys = Integer.parseInt(args[++i]);
        default -> {
          System.err.println("Usage: indexfs bench kv [--threads T] [--keys N per thread]");
          System.exit(2);
        }
      }
    }
    Path dir = Files.createTempDirectory("indexfs-kv-");
    java.util.Map<String, KvBench.Result> results = KvBench.run(dir.resolve("db"), threads, keys, new AtomicLong());
    Files.deleteIfExists(dir);
    for (KvBench.Result r : results.values()) {
      System.out.printf(Locale.ROOT, "%-18s %,12.0f ops/s   p50 %d µs   p99 %d µs%n", r.op(), r.opsPerSecond(),
          r.micros().getValueAtPercentile(50), r.micros().getValueAtPercentile(99));
    }
  }
}
