package org.indexfs.bench.cluster;

import java.io.IOException;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.indexfs.bench.replay.TraceReader;
import org.indexfs.bench.scale.BalancePrediction;
import org.indexfs.bench.scale.SlotLoadModel;

/**
 * The load-balance side of the model: the run's own workloads, path for path, fed through
 * {@link SlotLoadModel} (the servers' power-of-two-choices placement and the GIGA+ index math,
 * splitting as the index defines it) at N slots; per phase, what each slot serves: the phase's
 * calls, and the calls other slots make to it on their behalf (a directory's mtime raised where
 * its entry lives, a new directory's first partition made at its home). A listing's work is per
 * entry, so its load is the entries the create phase left on each slot.
 */
final class PlacementLoads {
  static final int SPLIT_THRESHOLD = 2_000; // indexfs.split.threshold's default, as the servers run
  static final long REFRESH_EVERY_CALLS = 3_000;
  static final long SEED = 1;

  private PlacementLoads() {}

  /** A phase's load per slot: its own calls, and the calls between slots each slot received for it. */
  record Load(long[] calls, long[] peerCalls) {
    /**
     * The busiest slot's share of the phase's work, a call between slots weighing {@code peerWeight}
     * of one of the phase's operations (1/N: even over N slots, with no calls between slots).
     */
    double busiestShare(double peerWeight) {
      double max = 0;
      long sum = 0;
      for (int k = 0; k < calls.length; k++) {
        max = Math.max(max, calls[k] + peerWeight * peerCalls[k]);
        sum += calls[k];
      }
      return sum == 0 ? 1.0 / calls.length : max / sum;
    }

    long peerCallsTotal() {
      long s = 0;
      for (long v : peerCalls) {
        s += v;
      }
      return s;
    }
  }

  /** Each phase's load at {@code slots} slots, for the phases of {@code o}. */
  static Map<String, Load> loads(ClusterOptions o, int slots, double slice, Path generatedTrace)
      throws IOException {
    Map<String, Load> out = new LinkedHashMap<>();
    Config c = Config.indexfs(slots, slice);
    for (boolean shared : o.layouts()) {
      mdtest(o, c, shared, out);
    }
    if (generatedTrace != null) {
      out.put("mixed trace (LinkedIn mix)", trace(o, c, List.of(generatedTrace), ZoneId.of("UTC"),
          "mixed trace (LinkedIn mix)"));
    }
    for (Path t : o.traces()) {
      String name = "audit log " + t.getFileName();
      out.put(name, trace(o, c, List.of(t), ZoneId.systemDefault(), name));
    }
    return out;
  }

  private static void mdtest(ClusterOptions o, Config c, boolean shared, Map<String, Load> out) {
    String layout = shared ? "shared dir" : "private dirs";
    SlotLoadModel m = model(c.slices());
    int clients = o.clients();
    int threads = o.threadsPerClient(c.slices());
    int files = o.filesPerThread(c.slices());
    String base = "/bench/r0/" + c.target() + "-" + c.slices() + "x" + String.format(Locale.ROOT, "%.3f", c.slice())
        + "/" + layout.replace(' ', '-');
    for (int d = 1; d <= o.depth(); d++) {
      base += "/d" + d;
    }
    int all = clients * threads;
    m.mkdirs("/bench"); // as the bench makes it
    for (int t = 0; t < all; t++) {
      m.mkdirs(dir(base, shared, t)); // as MdtestWorkload.prepare: FileSystem.mkdirs of each thread's directory
    }
    SlotLoadModel.Result before = m.result();
    for (int t = 0; t < all; t++) {
      for (int i = 0; i < files; i++) {
        m.create(dir(base, shared, t) + "/f." + t + "." + i);
      }
    }
    SlotLoadModel.Result created = m.result();
    out.put("create (" + layout + ")", between(before, created));
    out.put("list (" + layout + ")", new Load(created.entries(), new long[c.slices()]));
    for (int t = 0; t < all; t++) {
      for (int i = 0; i < files; i++) {
        m.touch(dir(base, shared, t) + "/f." + t + "." + i);
      }
    }
    SlotLoadModel.Result stated = m.result();
    out.put("stat (" + layout + ")", between(created, stated));
    for (int t = 0; t < all; t++) {
      for (int i = 0; i < files; i++) {
        m.delete(dir(base, shared, t) + "/f." + t + "." + i);
      }
    }
    out.put("delete (" + layout + ")", between(stated, m.result()));
  }

  private static Load between(SlotLoadModel.Result a, SlotLoadModel.Result b) {
    return new Load(minus(b.operations(), a.operations()), minus(b.peerCalls(), a.peerCalls()));
  }

  private static String dir(String base, boolean shared, int thread) {
    return base + (shared ? "/shared" : "/t" + thread);
  }

  /** Each client host replays its own copy of the trace below its own prefix, as the run does. */
  private static Load trace(ClusterOptions o, Config c, List<Path> files, ZoneId zone, String name)
      throws IOException {
    SlotLoadModel m = model(c.slices());
    String base = "/bench/r0/" + c.target() + "-" + c.slices() + "x" + String.format(Locale.ROOT, "%.3f", c.slice())
        + "/" + name.replaceAll("[^A-Za-z0-9.-]+", "-");
    for (int k = 0; k < o.clients(); k++) {
      try (TraceReader reader = new TraceReader(files, zone, base + "/c" + k)) {
        while (reader.hasNext()) {
          BalancePrediction.apply(m, reader.next());
        }
      }
    }
    return new Load(m.result().operations(), m.result().peerCalls());
  }

  private static SlotLoadModel model(int slots) {
    return new SlotLoadModel(new SlotLoadModel.Settings(slots, true, SPLIT_THRESHOLD, REFRESH_EVERY_CALLS, SEED));
  }

  private static long[] minus(long[] a, long[] b) {
    long[] d = new long[a.length];
    for (int i = 0; i < a.length; i++) {
      d[i] = a[i] - b[i];
    }
    return d;
  }
}
