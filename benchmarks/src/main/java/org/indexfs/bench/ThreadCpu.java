package org.indexfs.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;

/**
 * CPU time of this process's threads, grouped by who they work for. Servers, clients and the
 * benchmark threads share one JVM in {@code bench compare} and {@code bench scale}, so the
 * process's CPU time alone would mix them; Java threads are told apart by name:
 *
 * <ul>
 *   <li><b>handlers</b>: {@code indexfs-handler}, the IndexFS servers' pool for calls that may wait;</li>
 *   <li><b>server</b>: the handlers plus the IndexFS servers' I/O threads (where most calls run),
 *       WAL syncer, audit writer, peer connections and background threads ({@code indexfs-*} other
 *       than the client's); and the HDFS NameNode's RPC threads ({@code IPC Server ...},
 *       {@code Socket Reader ...}) and edit log writer — only one system runs at a time, so a
 *       phase's server time is its own system's;</li>
 *   <li><b>client I/O</b>: the clients' network threads ({@code indexfs-client}, HDFS's
 *       {@code IPC Client ...} and {@code IPC Parameter Sending Thread}). The benchmark's calling
 *       threads are measured by the workload itself ({@link #currentThreadNanos});</li>
 *   <li><b>process</b>: everything, including what no Java thread accounts for: RocksDB's native
 *       flush/compaction threads, GC, JIT.</li>
 * </ul>
 */
public final class ThreadCpu {
  /** CPU nanoseconds by group, summed over threads. */
  public record Sample(long handlerNanos, long serverNanos, long clientIoNanos, long processNanos) {}

  enum Group { HANDLER, SERVER, CLIENT_IO, OTHER }

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

  static Group groupOf(String name) {
    if (name.equals("indexfs-handler")) {
      return Group.HANDLER;
    }
    if (name.startsWith("indexfs-client") || name.startsWith("IPC Client") || name.startsWith("IPC Parameter Sending")) {
      return Group.CLIENT_IO;
    }
    if (name.startsWith("indexfs-") || name.startsWith("IPC Server") || name.startsWith("Socket Reader")
        || name.contains("FSEditLog") || name.startsWith("multiThreadIoEventLoopGroup")) {
      return Group.SERVER;
    }
    return Group.OTHER;
  }

  public static boolean supported() {
    return THREADS.isThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled();
  }

  public static ThreadCpu now() {
    return new ThreadCpu();
  }

  /** CPU time of the calling thread so far (0 where the JVM does not measure it). */
  public static long currentThreadNanos() {
    return supported() ? THREADS.getCurrentThreadCpuTime() : 0;
  }

  /**
   * CPU used between {@code earlier} and this snapshot. A thread started in between counts from
   * zero; one that ended in between is lost (server and client threads live as long as their
   * cluster or connection, so that only affects short-lived helpers).
   */
  public Sample since(ThreadCpu earlier) {
    long handlers = 0;
    long server = 0;
    long clientIo = 0;
    for (Map.Entry<Long, ThreadTime> e : perThread.entrySet()) {
      ThreadTime before = earlier.perThread.get(e.getKey());
      long delta = e.getValue().nanos() - (before == null ? 0 : before.nanos());
      switch (e.getValue().group()) {
        case HANDLER -> {
          handlers += delta;
          server += delta;
        }
        case SERVER -> server += delta;
        case CLIENT_IO -> clientIo += delta;
        case OTHER -> { }
      }
    }
    return new Sample(handlers, server, clientIo, processNanos - earlier.processNanos);
  }
}
