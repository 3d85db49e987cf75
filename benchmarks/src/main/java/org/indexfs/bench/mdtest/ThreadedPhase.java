package org.indexfs.bench.mdtest;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.HdrHistogram.Histogram;

/**
 * Runs one benchmark phase on T threads that start together at a barrier; the phase ends when the
 * last thread finishes. Each thread records its calls' latencies (µs) in its own histogram; they
 * are merged at the end.
 */
final class ThreadedPhase {
  /** What one thread does in the phase, recording each call's latency in {@code micros}. */
  @FunctionalInterface
  interface Worker {
    void run(int thread, Histogram micros) throws Exception;
  }

  /** The merged latencies, the wall time, and the CPU time the calling threads used. */
  record Timing(Histogram micros, double seconds, long workerCpuNanos) {}

  private ThreadedPhase() {}

  static Histogram newHistogram() {
    return new Histogram(3_600_000_000L, 3);
  }

  static Timing run(String name, int threads, Worker worker) throws IOException {
    CyclicBarrier start = new CyclicBarrier(threads + 1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<Histogram>> futures = new ArrayList<>();
    java.util.concurrent.atomic.LongAdder cpu = new java.util.concurrent.atomic.LongAdder();
    try {
      for (int t = 0; t < threads; t++) {
        int thread = t;
        futures.add(pool.submit(() -> {
          Histogram h = newHistogram();
          start.await();
          long cpuBefore = org.indexfs.bench.ThreadCpu.currentThreadNanos();
          try {
            worker.run(thread, h);
          } finally {
            cpu.add(org.indexfs.bench.ThreadCpu.currentThreadNanos() - cpuBefore);
          }
          return h;
        }));
      }
      start.await();
      long begin = System.nanoTime();
      Histogram all = newHistogram();
      for (Future<Histogram> f : futures) {
        all.add(f.get());
      }
      return new Timing(all, (System.nanoTime() - begin) / 1e9, cpu.sum());
    } catch (ExecutionException e) {
      throw new IOException("Phase " + name + " failed: " + e.getCause(), e.getCause());
    } catch (InterruptedException | java.util.concurrent.BrokenBarrierException e) {
      throw new IOException("Phase " + name + " was interrupted", e);
    } finally {
      pool.shutdownNow();
    }
  }
}
