package org.indexfs.bench.bulk;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.indexfs.server.local.LocalHdfs;

/**
 * {@code bin/indexfs bench namenode-heap [files]}: the heap the HDFS NameNode needs per inode,
 * measured on a MiniDFSCluster in this JVM (used heap after a full GC, before and after creating
 * the files), to extrapolate what the namespace of {@code bench bulk} would need on a NameNode.
 */
public final class NameNodeHeapMain {
  private NameNodeHeapMain() {}

  public static void main(String[] args) throws Exception {
    long files = args.length > 0 ? Long.parseLong(args[0]) : 100_000;
    java.nio.file.Path dir = Files.createTempDirectory("indexfs-nn-heap");
    try (LocalHdfs hdfs = LocalHdfs.start(dir, 1, Map.of(), false)) {
      DistributedFileSystem fs = hdfs.fileSystem();
      long before = usedAfterGc();
      AtomicLong next = new AtomicLong();
      ExecutorService pool = Executors.newFixedThreadPool(8);
      for (int t = 0; t < 8; t++) {
        pool.submit(() -> {
          for (long i = next.getAndIncrement(); i < files; i = next.getAndIncrement()) {
            fs.create(new org.apache.hadoop.fs.Path("/heap/d" + (i / 1000) + "/f" + i)).close();
          }
          return null;
        });
      }
      pool.shutdown();
      pool.awaitTermination(1, TimeUnit.DAYS);
      long inodes = files + files / 1000 + 1;
      long after = usedAfterGc();
      double perInode = (after - before) / (double) inodes;
      System.out.printf(Locale.ROOT, "NameNode heap: %,d inodes took %.1f MiB -> %.0f bytes per inode; "
          + "100,000,000 entries would need %.1f GiB of NameNode heap%n", inodes, (after - before) / 1048576.0,
          perInode, perInode * 1e8 / (1L << 30));
    }
  }

  private static long usedAfterGc() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(200);
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
