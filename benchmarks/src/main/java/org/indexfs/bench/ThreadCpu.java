package org.indexfs.bench.scale;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;

/**
 * CPU time of this process's threads, grouped by who they work for. The servers, the client and
 * the benchmark threads share one JVM in {@code bench scale}, so the process's CPU time alone
 * would mix them; Java threads are told apart by name:
 *
 * <ul>
 *   <li><b>handlers</b>: {@code indexfs-handler}, the servers' operation threads (path walk,
 *       permission checks, RocksDB reads and writes, the WAL fsync of group commit);</li>
 *   <li><b>server</b>: the handlers plus the servers' Netty I/O threads (framing, protobuf
 *       decode/encode; Netty's default names {@code multiThreadIoEventLoopGroup-*}, used by no
 *       other component here), peer connections and background threads ({@code indexfs-*} other
 *       than the client's);</li>
 *   <li><b>process</b>: everything, including the client and benchmark threads, ZooKeeper, and
 *       what no Java thread accounts for: RocksDB's native flush/compaction threads, GC, JIT.</li>
 * </ul>
 */
final class ThreadCpu {
  /** CPU nanoseconds by group, summed over threads. */
  record Sample(long handlerNanos, long serverNanos, long processNanos) {}

  enum Group { HANDLER, SERVER, OTHER }

  private record ThreadTime(Group group, long nanos) {}

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final Map<Long, ThreadTime> perThread = new HashMap<>();
  private final long processNanos;

  private ThreadCpu() {
    for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
      long cpu = info == null ? -1 : THREADS.getThreadCpuTime(info.getThreadId());
      if (cpu >= 0) { // -1: ended since the ids were read
        perThread.put(info.getThreadId(), new ThreadTime(groupOf(info.getThreadName()), cpu));
      }
    }
    processNanos = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  static Group groupOf(String threadName) {
    if (threadName.equals("indexfs-handler")) {
      return Group.HANDLER;
    }
    if (threadName.startsWith("multiThreadIoEventLoopGroup")
        || threadName.startsWith("indexfs-") && !threadName.startsWith("indexfs-client")) {
      return Group.SERVER;
    }
    return Group.OTHER;
  }

  static boolean supported() {
    return THREADS.isThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled();
  }

  static ThreadCpu now() {
    return new ThreadCpu();
  }

  /**
   * CPU used between {@code earlier} and this snapshot. A thread started in between counts from
   * zero; one that ended in between is lost (server threads live as long as the cluster, so that
   * only affects short-lived helpers).
   */
  Sample since(ThreadCpu earlier) {
    long handlers = 0;
    long server = 0;
    for (Map.Entry<Long, ThreadTime> e : perThread.entrySet()) {
      ThreadTime before = earlier.perThread.get(e.getKey());
      long delta = e.getValue().nanos() - (before == null ? 0 : before.nanos());
      switch (e.getValue().group()) {
        case HANDLER -> {
          handlers += delta;
          server += delta;
        }
        case SERVER -> server += delta;
        case OTHER -> { }
      }
    }
    return new Sample(handlers, server, processNanos - earlier.processNanos);
  }
}
