package org.indexfs.bench.mdtest;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** What a report says about where it ran, read off the machine (never typed in). */
public final class Machine {
  private Machine() {}

  public static String describe() {
    long memory = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getTotalMemorySize();
    return String.format(Locale.ROOT, "%s, %d cores, %.0f GiB RAM, %s %s", cpuModel(),
        Runtime.getRuntime().availableProcessors(), memory / (double) (1L << 30),
        System.getProperty("os.name"), System.getProperty("os.version"));
  }

  public static String versions() {
    return "Java " + Runtime.version() + ", Hadoop " + org.apache.hadoop.util.VersionInfo.getVersion()
        + ", RocksDB " + org.rocksdb.RocksDB.rocksdbVersion() + ", JVM heap max "
        + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB";
  }

  private static String cpuModel() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux: fall through
    }
    return System.getProperty("os.arch");
  }
}
