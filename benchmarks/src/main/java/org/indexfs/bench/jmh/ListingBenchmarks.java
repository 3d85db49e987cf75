package org.indexfs.bench.jmh;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.RemoteIterator;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.server.local.LocalCluster;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a listing costs end to end through the Hadoop API on an embedded cluster (DESIGN §13):
 * one page (a directory of 1,000 entries, the page size) and ten pages (10,000 entries) on one
 * slot, and the 10,000-entry directory split over four slots, whose pages are merged from four
 * partitions. Reported per listing; divide by the entries for the cost per entry.
 * Run: {@code bin/indexfs bench jmh org.indexfs.bench.jmh.ListingBenchmarks}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ListingBenchmarks {
  @Param({"1", "4"})
  public int slots;

  private Path work;
  private LocalCluster cluster;
  private FileSystem fs;
  private org.apache.hadoop.fs.Path onePage;
  private org.apache.hadoop.fs.Path tenPages;

  @Setup(Level.Trial)
  public void start() throws IOException, InterruptedException {
    work = Files.createTempDirectory("indexfs-listing-bench-");
    cluster = LocalCluster.builder(work).clusterName("listing").servers(slots)
        .set(IndexFsConfig.WAL_SYNC.name(), "false").set(IndexFsConfig.AUDIT_ENABLED.name(), "false")
        .set(IndexFsConfig.SPLIT_THRESHOLD.name(), "1000").start();
    Configuration conf = new Configuration();
    for (Map.Entry<String, String> e : cluster.clientConf().entrySet()) {
      conf.set(e.getKey(), e.getValue());
    }
    fs = FileSystem.newInstance(URI.create(cluster.defaultFs()), conf);
    onePage = fill("/one-page", 1_000);
    tenPages = fill("/ten-pages", 10_000);
    Thread.sleep(3_000); // let background splits settle
  }

  private org.apache.hadoop.fs.Path fill(String dir, int n) throws IOException {
    org.apache.hadoop.fs.Path d = new org.apache.hadoop.fs.Path(dir);
    fs.mkdirs(d);
    for (int i = 0; i < n; i++) {
      fs.create(new org.apache.hadoop.fs.Path(d, "part-" + i), false).close();
    }
    return d;
  }

  private long list(org.apache.hadoop.fs.Path dir) throws IOException {
    long n = 0;
    RemoteIterator<FileStatus> it = fs.listStatusIterator(dir);
    while (it.hasNext()) {
      n += it.next().getLen();
    }
    return n;
  }

  @Benchmark
  public long listOnePage() throws IOException {
    return list(onePage);
  }

  @Benchmark
  public long listTenPages() throws IOException {
    return list(tenPages);
  }

  @TearDown(Level.Trial)
  public void stop() throws IOException {
    fs.close();
    cluster.close();
  }
}
