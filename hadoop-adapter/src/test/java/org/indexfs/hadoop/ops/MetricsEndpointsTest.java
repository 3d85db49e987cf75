package org.indexfs.hadoop.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.hadoop.IndexFsTestCluster;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * After a workload of known size on two slots, the per-operation counts it caused are in the
 * Prometheus endpoint ({@code /prom}, Hadoop's PrometheusMetricsSink) and in the metrics2 file sink
 * configured by {@code hadoop-metrics2.properties}, summed over the slots; and the server-wide
 * metrics operators look for are there: splits, RocksDB statistics, lease table, group commit,
 * queue time and latency percentiles.
 */
class MetricsEndpointsTest {
  private static final int MKDIRS = 31;
  private static final int CREATES = 60;
  private static final int RENAMES = 10;
  private static final int DELETES = 5;
  private static final Path FILE_SINK = Path.of("target", "indexfs-metrics.out");
  private static final Pattern PROM = Pattern.compile("^(\\w+)\\{([^}]*)\\} (\\S+)$");

  private static LocalCluster cluster;

  @BeforeAll
  static void workload() throws IOException {
    cluster = LocalCluster.builder(IndexFsTestCluster.newWorkDir("metrics")).clusterName("metrics").servers(2)
        .set(IndexFsConfig.DATA_URI.name(), IndexFsTestCluster.hdfs().uri() + "/metrics-data")
        .set(IndexFsConfig.SPLIT_THRESHOLD.name(), "16").set(IndexFsConfig.HTTP_PORT.name(), "0").start();
    Configuration conf = IndexFsTestCluster.conf(cluster);
    try (FileSystem fs = FileSystem.newInstance(URI.create(cluster.defaultFs()), conf)) {
      fs.mkdirs(new org.apache.hadoop.fs.Path("/m"));
      for (int i = 1; i < MKDIRS; i++) {
        fs.mkdirs(new org.apache.hadoop.fs.Path("/m/d" + i));
      }
      for (int i = 0; i < CREATES; i++) {
        fs.create(new org.apache.hadoop.fs.Path("/m/d1/f" + i)).close();
      }
      for (int i = 0; i < RENAMES; i++) {
        assertTrue(fs.rename(new org.apache.hadoop.fs.Path("/m/d1/f" + i),
            new org.apache.hadoop.fs.Path("/m/d" + (2 + i) + "/g" + i)));
      }
      for (int i = 0; i < DELETES; i++) {
        assertTrue(fs.delete(new org.apache.hadoop.fs.Path("/m/d" + (2 + i) + "/g" + i), false));
      }
    }
    for (int slot = 0; slot < cluster.serverCount(); slot++) {
      cluster.server(slot).metrics().rollWindow(); // the workload's latencies become the last window
    }
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** One Prometheus sample: metric name, labels, value. */
  private record Sample(String name, Map<String, String> labels, double value) {}

  private static List<Sample> prometheus() throws Exception {
    int port = cluster.server(0).statusServer().address().getPort();
    HttpResponse<String> r = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/prom")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode());
    assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));
    List<Sample> out = new ArrayList<>();
    for (String line : r.body().split("\n")) {
      Matcher m = PROM.matcher(line);
      if (m.matches()) {
        Map<String, String> labels = new HashMap<>();
        for (String kv : m.group(2).split(",")) {
          int eq = kv.indexOf('=');
          labels.put(kv.substring(0, eq), kv.substring(eq + 2, kv.length() - 1));
        }
        out.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(3))));
      }
    }
    return out;
  }

  /** Sum over this cluster's slots of {@code name}, optionally for one operation. */
  private static double sum(List<Sample> samples, String name, String op) {
    return samples.stream().filter(s -> s.name().equals(name) && "metrics".equals(s.labels().get("cluster"))
        && (op == null || op.equals(s.labels().get("op")))).mapToDouble(Sample::value).sum();
  }

  private static double max(List<Sample> samples, String name, String op) {
    return samples.stream().filter(s -> s.name().equals(name) && "metrics".equals(s.labels().get("cluster"))
        && (op == null || op.equals(s.labels().get("op")))).mapToDouble(Sample::value).max().orElse(-1);
  }

  private static long served(List<Sample> samples, String op) {
    return Math.round(sum(samples, "index_fs_operation_count", op) - sum(samples, "index_fs_operation_errors", op));
  }

  @Test
  void prometheusEndpointHasTheWorkloadsCounts() throws Exception {
    List<Sample> s = prometheus();
    assertEquals(MKDIRS, served(s, "mkdirs"));
    assertEquals(CREATES, served(s, "create"));
    assertEquals(CREATES, served(s, "complete"));
    assertEquals(RENAMES, served(s, "rename"));
    assertEquals(DELETES, served(s, "delete"));
    assertTrue(max(s, "index_fs_operation_latency_p99_micros", "create") > 0, "create latency percentile");
    assertTrue(max(s, "index_fs_operation_latency_p50_micros", "mkdirs") > 0, "mkdirs latency percentile");
    assertTrue(sum(s, "index_fs_server_splits_done", null) >= 1, "the directory of " + CREATES + " files split");
    assertTrue(sum(s, "index_fs_server_split_entries_moved", null) >= 1);
    assertTrue(sum(s, "index_fs_server_mutations", null) >= MKDIRS + 2 * CREATES);
    assertTrue(sum(s, "index_fs_server_wal_syncs", null) >= 1);
    assertTrue(max(s, "index_fs_server_group_commit_mean_size", null) >= 1, "mutations per fsync");
    assertTrue(max(s, "index_fs_server_queue_time_p99_micros", null) >= 0);
    for (String rocks : List.of("compactions", "stall_micros", "block_cache_hits", "block_cache_misses",
        "block_cache_hit_ratio", "pending_compaction_bytes", "running_compactions", "write_stopped")) {
      assertEquals(cluster.serverCount(), s.stream().filter(x -> x.name().equals("index_fs_server_rocksdb_" + rocks)
          && "metrics".equals(x.labels().get("cluster"))).count(), rocks);
    }
    assertTrue(sum(s, "index_fs_server_entry_lease_table_size", null) >= 1, "leases were granted on /m/...");
    assertEquals(0, sum(s, "index_fs_server_open_files", null));
    assertEquals(0, sum(s, "index_fs_server_safe_mode", null));
    assertTrue(s.stream().anyMatch(x -> x.name().startsWith("jvm_metrics_")), "the JVM's own metrics");
  }

  @Test
  void metrics2FileSinkHasTheWorkloadsCounts() throws Exception {
    Map<String, Long> expected = Map.of("mkdirs", (long) MKDIRS, "create", (long) CREATES, "rename", (long) RENAMES,
        "delete", (long) DELETES);
    Map<String, Long> seen = Map.of();
    for (int attempt = 0; attempt < 100 && !seen.equals(expected); attempt++) {
      Thread.sleep(200);
      seen = fromFileSink(expected.keySet());
    }
    assertEquals(expected, seen, "counts in " + FILE_SINK.toAbsolutePath());
  }

  /** The latest count - errors of each operation per slot in the file sink's lines, summed over slots. */
  private static Map<String, Long> fromFileSink(java.util.Set<String> ops) throws IOException {
    if (!Files.exists(FILE_SINK)) {
      return Map.of();
    }
    Map<String, Long> latest = new LinkedHashMap<>();
    for (String line : Files.readAllLines(FILE_SINK, StandardCharsets.UTF_8)) {
      if (!line.contains(" indexfs.IndexFsOperation: ") || !line.contains("Cluster=metrics,")) {
        continue;
      }
      Map<String, String> fields = new HashMap<>();
      for (String kv : line.substring(line.indexOf(": ") + 2).split(", ")) {
        int eq = kv.indexOf('=');
        fields.put(kv.substring(0, eq), kv.substring(eq + 1));
      }
      if (ops.contains(fields.get("Op"))) {
        latest.put(fields.get("Op") + "@" + fields.get("Slot"),
            Long.parseLong(fields.get("Count")) - Long.parseLong(fields.get("Errors")));
      }
    }
    Map<String, Long> sums = new HashMap<>();
    latest.forEach((key, v) -> sums.merge(key.substring(0, key.indexOf('@')), v, Long::sum));
    return sums;
  }
}
