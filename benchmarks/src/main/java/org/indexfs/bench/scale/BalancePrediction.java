package org.indexfs.bench.scale;

import java.io.IOException;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.indexfs.bench.replay.AuditEvent;
import org.indexfs.bench.replay.TraceReader;

/**
 * The load-balance prediction of {@code bench scale}: workloads fed through {@link SlotLoadModel}
 * for each slot count, once as placement works today (each directory whole on its home slot) and
 * once with GIGA+ splitting as the index math models it.
 */
public final class BalancePrediction {
  /** Something the model can run: a stream of calls. */
  public interface Workload {
    String name();

    /** Feeds every call into {@code model}, adding one to {@code progress} per call. */
    void feed(SlotLoadModel model, AtomicLong progress) throws IOException;

    /** Calls per {@link #feed}, for a progress bar (an estimate is fine). */
    long calls();
  }

  /** One workload at one slot count, without and with splitting. */
  public record Row(String workload, int slots, SlotLoadModel.Result today, SlotLoadModel.Result splitting) {}

  private BalancePrediction() {}

  public static List<Row> run(List<Workload> workloads, List<Integer> slotCounts, int splitThreshold,
      long refreshEvery, long seed, AtomicLong progress) throws IOException {
    List<Row> rows = new ArrayList<>();
    for (Workload w : workloads) {
      for (int n : slotCounts) {
        SlotLoadModel today = new SlotLoadModel(new SlotLoadModel.Settings(n, false, splitThreshold, refreshEvery, seed));
        w.feed(today, progress);
        SlotLoadModel split = new SlotLoadModel(new SlotLoadModel.Settings(n, true, splitThreshold, refreshEvery, seed));
        w.feed(split, progress);
        rows.add(new Row(w.name(), n, today.result(), split.result()));
      }
    }
    return rows;
  }

  /**
   * The mdtest workload of the in-process runs, at a size no machine here could hold: T threads
   * each create, stat and delete F files in one shared directory or in a directory of their own,
   * and each lists the directory it wrote.
   */
  public static Workload mdtest(boolean shared, int threads, int filesPerThread) {
    String name = String.format(java.util.Locale.ROOT, "mdtest %s (%,d x %,d files)",
        shared ? "shared dir" : "private dirs", threads, filesPerThread);
    return new Workload() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public long calls() {
        return (long) threads * filesPerThread * 3 + threads * (shared ? 1L : 2L);
      }

      @Override
      public void feed(SlotLoadModel m, AtomicLong progress) {
        if (!shared) {
          for (int t = 0; t < threads; t++) {
            m.mkdir(dir(t));
            progress.incrementAndGet();
          }
        }
        for (String phase : List.of("create", "stat", "list", "delete")) {
          for (int t = 0; t < threads; t++) {
            if (phase.equals("list")) {
              m.list(dir(t));
              progress.incrementAndGet();
              continue;
            }
            for (int i = 0; i < filesPerThread; i++) {
              String file = dir(t) + "/f." + t + "." + i;
              switch (phase) {
                case "create" -> m.create(file);
                case "stat" -> m.touch(file);
                default -> m.delete(file);
              }
            }
            progress.addAndGet(filesPerThread);
          }
        }
      }

      private String dir(int t) {
        return shared ? "/bench/shared" : "/bench/t" + t;
      }
    };
  }

  /** An audit-log trace (written by {@code TraceGenerator} or a NameNode), read anew for each run. */
  public static Workload trace(String name, List<Path> files, long calls) {
    return new Workload() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public long calls() {
        return calls;
      }

      @Override
      public void feed(SlotLoadModel m, AtomicLong progress) throws IOException {
        try (TraceReader reader = new TraceReader(files, ZoneId.of("UTC"))) {
          while (reader.hasNext()) {
            apply(m, reader.next());
            progress.incrementAndGet();
          }
        }
      }
    };
  }

  /** One audit record as the model's calls; refused calls ({@code allowed=false}) are left out. */
  public static void apply(SlotLoadModel m, AuditEvent e) {
    if (!e.allowed()) {
      return;
    }
    switch (e.command()) {
      case GETFILEINFO, OPEN, SET_PERMISSION, SET_OWNER, SET_TIMES, SET_REPLICATION, APPEND, TRUNCATE ->
          m.touch(e.src());
      case LIST_STATUS, CONTENT_SUMMARY -> m.list(e.src());
      case CREATE -> m.create(e.src());
      case MKDIRS -> m.mkdirs(e.src()); // HDFS's mkdirs creates missing parents
      case DELETE -> m.delete(e.src());
      case RENAME -> m.rename(e.src(), e.dst());
      case CONCAT -> {
        m.touch(e.dst());
        e.concatSources().forEach(m::delete);
      }
      default -> throw new IllegalStateException("Unmodelled command " + e.command());
    }
  }
}
