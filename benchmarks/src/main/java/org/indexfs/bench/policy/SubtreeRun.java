package org.indexfs.bench.policy;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import org.HdrHistogram.Histogram;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.indexfs.bench.report.OpMetrics;
import org.indexfs.bench.report.TargetRun;
import org.indexfs.hadoop.IndexFileSystem;

/**
 * mdtest's create and stat phases in one subtree, on T threads of one client (its own FileSystem):
 * each thread makes its directory under the subtree, creates its files (empty, closed), then stats
 * them. In a localized subtree the directory is localized by its maker, so both phases run in the
 * client; the publish that makes them visible to others is timed apart ({@link #publishSeconds}).
 * A decoupled subtree is checked out first (timed apart, {@link #checkoutSeconds}): both phases run
 * on the private copy, and the merge that makes them visible is timed as the publish is.
 */
final class SubtreeRun {
  private final PoliciesMain.Subtree subtree;
  private final URI uri;
  private final Configuration conf;
  private final int files;
  private final int threads;
  private final List<Thread> workers = new ArrayList<>();
  private final Histogram[] creates;
  private final Histogram[] stats;
  private final CyclicBarrier statStart;
  private volatile Throwable failure;
  private IndexFileSystem fs;
  private long createStart;
  private long createEnd;
  private final java.util.concurrent.atomic.AtomicLong statEnd = new java.util.concurrent.atomic.AtomicLong();
  private double publishSeconds;
  private double checkoutSeconds;

  SubtreeRun(PoliciesMain.Subtree subtree, URI uri, Configuration conf, int files, int threads) {
    this.subtree = subtree;
    this.uri = uri;
    this.conf = conf;
    this.files = files;
    this.threads = threads;
    this.creates = new Histogram[threads];
    this.stats = new Histogram[threads];
    this.statStart = new CyclicBarrier(threads, () -> createEnd = System.nanoTime());
  }

  void start() throws IOException {
    fs = (IndexFileSystem) FileSystem.newInstance(uri, conf);
    if (decoupled()) {
      long c0 = System.nanoTime();
      fs.checkout(new Path(subtree.path()));
      checkoutSeconds = (System.nanoTime() - c0) / 1e9;
    }
    createStart = System.nanoTime();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      creates[t] = new Histogram(3_600_000_000L, 3);
      stats[t] = new Histogram(3_600_000_000L, 3);
      Thread w = new Thread(() -> work(thread), "policies-" + subtree.label() + "-" + t);
      workers.add(w);
      w.start();
    }
  }

  private void work(int thread) {
    try {
      Path dir = new Path(subtree.path(), "mdtest-" + thread);
      fs.mkdirs(dir);
      for (int i = 0; i < files; i++) {
        long t0 = System.nanoTime();
        fs.create(new Path(dir, "file." + i)).close();
        creates[thread].recordValue((System.nanoTime() - t0) / 1_000);
      }
      statStart.await();
      for (int i = 0; i < files; i++) {
        long t0 = System.nanoTime();
        fs.getFileStatus(new Path(dir, "file." + i));
        stats[thread].recordValue((System.nanoTime() - t0) / 1_000);
      }
      statEnd.accumulateAndGet(System.nanoTime(), Math::max);
    } catch (Throwable e) {
      failure = e;
      statStart.reset();
    }
  }

  void join() throws Exception {
    for (Thread w : workers) {
      w.join();
    }
    if (failure != null) {
      throw new IOException(subtree.label() + " failed: " + failure, failure);
    }
    long p0 = System.nanoTime();
    for (int t = 0; subtree.policy().consistency() == org.indexfs.common.policy.SubtreePolicy.Consistency.LOCALIZED
        && t < threads; t++) {
      Path dir = new Path(subtree.path(), "mdtest-" + t);
      if (!fs.publish(dir).isEmpty()) {
        throw new IOException("publish of " + dir + " refused entries");
      }
    }
    if (decoupled()) {
      org.indexfs.hadoop.decoupled.MergeReport merged = fs.merge(new Path(subtree.path()));
      if (!merged.conflicts().isEmpty() || merged.applied() != (long) threads * (files + 1)) {
        throw new IOException("merge of " + subtree.path() + " did not apply every entry: " + merged);
      }
    }
    fs.close(); // a localized subtree publishes and gives its lease up
    publishSeconds = (System.nanoTime() - p0) / 1e9;
  }

  boolean localized() {
    return subtree.policy().consistency() == org.indexfs.common.policy.SubtreePolicy.Consistency.LOCALIZED;
  }

  boolean decoupled() {
    return subtree.policy().consistency() == org.indexfs.common.policy.SubtreePolicy.Consistency.DECOUPLED;
  }

  double checkoutSeconds() {
    return checkoutSeconds;
  }

  double publishSeconds() {
    return publishSeconds;
  }

  TargetRun result() {
    Histogram c = new Histogram(3_600_000_000L, 3);
    Histogram s = new Histogram(3_600_000_000L, 3);
    for (int t = 0; t < threads; t++) {
      c.add(creates[t]);
      s.add(stats[t]);
    }
    double createSeconds = (createEnd - createStart) / 1e9;
    double statSeconds = (statEnd.get() - createEnd) / 1e9;
    OpMetrics create = OpMetrics.of("create", c, createSeconds, 0);
    OpMetrics stat = OpMetrics.of("stat", s, statSeconds, 0);
    Histogram both = new Histogram(3_600_000_000L, 3);
    both.add(c);
    both.add(s);
    return new TargetRun(subtree.label(), uri + subtree.path().substring(1),
        createSeconds + statSeconds, List.of(create, stat), OpMetrics.of("all", both, createSeconds + statSeconds, 0));
  }
}
