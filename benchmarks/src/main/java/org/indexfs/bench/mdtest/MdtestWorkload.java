package org.indexfs.bench.mdtest;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.indexfs.bench.ThreadCpu;

/**
 * The mdtest workload the IndexFS paper measures with (§III-A), through the Hadoop FileSystem API
 * any user calls: T threads create, stat, list and delete empty files, either all in one shared
 * directory or each in a private one, under a directory chain of a given depth.
 *
 * <p>Each phase starts all threads at a barrier and ends when the last finishes; every call's
 * latency goes into a histogram (µs). Listing counts one operation per entry returned; each thread
 * lists its directory {@link Settings#listPasses} times, so the phase returns at least 64 times as
 * many entries as the run has files, in either layout (one pass over private directories takes a
 * few milliseconds: too short to time against a GC pause or a scheduler tick).
 */
public final class MdtestWorkload {
  /**
   * What to run. {@code clients} processes may run one workload together (bench cluster's client
   * hosts): each runs {@code threads} threads, numbered after the threads of the clients before
   * it ({@code client} is this one's index), so their directories and files never collide and one
   * shared directory holds all their files.
   */
  public record Settings(int threads, int filesPerThread, boolean sharedDirectory, int depth, int client,
      int clients) {
    public Settings {
      if (threads < 1 || filesPerThread < 1 || depth < 0) {
        throw new IllegalArgumentException("threads and files per thread must be positive, depth not negative");
      }
      if (clients < 1 || client < 0 || client >= clients) {
        throw new IllegalArgumentException("client " + client + " of " + clients + " does not exist");
      }
    }

    /** The workload of one process alone. */
    public Settings(int threads, int filesPerThread, boolean sharedDirectory, int depth) {
      this(threads, filesPerThread, sharedDirectory, depth, 0, 1);
    }

    /** Files this process creates. */
    public long totalFiles() {
      return (long) threads * filesPerThread;
    }

    public String layout() {
      return sharedDirectory ? "shared dir" : "private dirs";
    }

    /** Entries one listing of a thread's directory returns (a shared one holds every client's files). */
    public long entriesPerListing() {
      return sharedDirectory ? totalFiles() * clients : filesPerThread;
    }

    /** How many times each thread lists its directory in the list phase: until it had 64 × its files. */
    public int listPasses() {
      return (int) Math.max(1, (64L * filesPerThread + entriesPerListing() - 1) / entriesPerListing());
    }

    /** The number of this process's first thread among all clients' threads. */
    int firstThread() {
      return client * threads;
    }
  }

  public enum Phase { CREATE, STAT, LIST, DELETE }

  /**
   * One phase's outcome on one file system, with the CPU time its servers used and its clients
   * used (the calling threads plus the client's network threads), from {@link ThreadCpu}.
   */
  public record PhaseResult(Phase phase, long operations, double seconds, Histogram micros, long errors,
      ThreadCpu.Sample cpu, long clientCpuNanos) {
    public double opsPerSecond() {
      return seconds > 0 ? operations / seconds : 0;
    }

    public long serverCpuNanos() {
      return cpu.serverNanos();
    }
  }

  private final FileSystem fs;
  private final Path root;
  private final Settings settings;
  private final AtomicLong progress;

  /** {@code progress} counts operations done, for a progress bar. */
  public MdtestWorkload(FileSystem fs, Path root, Settings settings, AtomicLong progress) {
    this.fs = fs;
    this.root = root;
    this.settings = settings;
    this.progress = progress;
  }

  /** Calls a whole run makes: create, stat and delete one per file; list one per entry returned. */
  public static long calls(Settings s) {
    return 3 * s.totalFiles() + listed(s);
  }

  /** Entries the list phase returns, all threads and passes together. */
  public static long listed(Settings s) {
    return (long) s.threads() * s.listPasses() * s.entriesPerListing();
  }

  /** Creates the directory chain (not timed) and runs every phase in order. */
  public List<PhaseResult> runAll() throws IOException {
    prepare();
    List<PhaseResult> results = new ArrayList<>();
    for (Phase phase : Phase.values()) {
      results.add(run(phase));
    }
    cleanUp();
    return results;
  }

  /** Removes everything the workload created. */
  public void cleanUp() throws IOException {
    fs.delete(root, true);
  }

  private Path base() {
    Path p = root;
    for (int d = 1; d <= settings.depth(); d++) {
      p = new Path(p, "d" + d);
    }
    return p;
  }

  /** Built once: the workload's own path arithmetic should not count as file system client cost. */
  private Path[] directories;

  Path directoryOf(int thread) {
    if (directories == null) {
      Path base = base();
      Path[] dirs = new Path[settings.threads()];
      for (int t = 0; t < dirs.length; t++) {
        dirs[t] = settings.sharedDirectory() ? new Path(base, "shared")
            : new Path(base, "t" + (settings.firstThread() + t));
      }
      directories = dirs;
    }
    return directories[thread];
  }

  Path fileOf(int thread, int i) {
    return new Path(directoryOf(thread), "f." + (settings.firstThread() + thread) + "." + i);
  }

  /** Creates the directory chain and the test directories (for callers that run phases one by one). */
  public void prepare() throws IOException {
    for (int t = 0; t < (settings.sharedDirectory() ? 1 : settings.threads()); t++) {
      if (!fs.mkdirs(directoryOf(t))) {
        throw new IOException("Could not create " + directoryOf(t));
      }
    }
  }

  public PhaseResult run(Phase phase) throws IOException {
    LongAdder operations = new LongAdder();
    LongAdder errors = new LongAdder();
    ThreadCpu before = ThreadCpu.now();
    ThreadedPhase.Timing t = ThreadedPhase.run(phase.name(), settings.threads(),
        (thread, micros) -> runThread(phase, thread, micros, operations, errors));
    ThreadCpu.Sample cpu = ThreadCpu.now().since(before);
    return new PhaseResult(phase, operations.sum(), t.seconds(), t.micros(), errors.sum(), cpu,
        t.workerCpuNanos() + cpu.clientIoNanos());
  }

  private void runThread(Phase phase, int thread, Histogram h, LongAdder operations, LongAdder errors)
      throws IOException {
    if (phase == Phase.LIST) {
      // Everybody lists the directory it wrote to: the shared one, or its own.
      for (int pass = 0; pass < settings.listPasses(); pass++) {
        long t0 = System.nanoTime();
        RemoteIterator<FileStatus> it = fs.listStatusIterator(directoryOf(thread));
        long entries = 0;
        while (it.hasNext()) {
          it.next();
          entries++;
          long now = System.nanoTime();
          h.recordValue(Math.max(1, (now - t0) / 1000));
          t0 = now;
        }
        if (entries != settings.entriesPerListing()) {
          errors.increment();
        }
        operations.add(entries);
        progress.addAndGet(entries);
      }
      return;
    }
    for (int i = 0; i < settings.filesPerThread(); i++) {
      Path file = fileOf(thread, i);
      long t0 = System.nanoTime();
      boolean ok = switch (phase) {
        case CREATE -> {
          fs.create(file, false).close();
          yield true;
        }
        case STAT -> fs.getFileStatus(file).getLen() == 0;
        case DELETE -> fs.delete(file, false);
        case LIST -> throw new IllegalStateException();
      };
      h.recordValue(Math.max(1, (System.nanoTime() - t0) / 1000));
      if (!ok) {
        errors.increment();
      }
      operations.increment();
      progress.incrementAndGet();
    }
  }
}
