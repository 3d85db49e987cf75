package org.indexfs.bench.mdtest;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.regex.Pattern;

/**
 * CPU time of the gateway's own RPC server threads: Hadoop names them after their port
 * ({@code IPC Server handler 3 on default port 41234}, {@code Socket Reader #1 for port 41234},
 * {@code IPC Server listener on 41234}), which tells them from the NameNode's in the same JVM. The
 * handlers translate each call and make it, synchronously, to IndexFS and to the data tier, so this
 * is what the hop costs the machine that runs a gateway, less its clients' network threads.
 */
final class GatewayCpu {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private GatewayCpu() {}

  /** Sum of the CPU time, so far, of the live threads of the RPC server on {@code port}. */
  static long nanos(int port) {
    Pattern own = Pattern.compile("^(IPC Server|Socket Reader).*(port|on) " + port + "$");
    long sum = 0;
    for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
      if (info != null && own.matcher(info.getThreadName()).matches()) {
        long cpu = THREADS.getThreadCpuTime(info.getThreadId());
        sum += Math.max(0, cpu);
      }
    }
    return sum;
  }
}
