package org.indexfs.hadoop.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FileSystem;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.InodeIds;
import org.indexfs.hadoop.IndexFsTestCluster;
import org.indexfs.server.IndexFsServer;
import org.indexfs.server.http.LargestDirectories;
import org.indexfs.server.local.LocalCluster;
import org.indexfs.server.metrics.SplitHistory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A server's status page as a person sees it, in headless Chromium: after a workload that splits
 * a directory over two slots, the splitting slot's page shows its overview, both slots with their
 * owners and status pages, the operation-rate chart (redrawn by the page's script from
 * status.json), the operations, the directory with its partitions, the split, and no standbys.
 * The screenshot goes to {@code target/surefire-reports/status-page.png}; the README shows a copy.
 */
class StatusPageChromiumTest {
  private static LocalCluster cluster;

  @BeforeAll
  static void workload() throws Exception {
    cluster = LocalCluster.builder(IndexFsTestCluster.newWorkDir("status")).clusterName("status").servers(2)
        .set(IndexFsConfig.DATA_URI.name(), IndexFsTestCluster.hdfs().uri() + "/status-data")
        .set(IndexFsConfig.SPLIT_THRESHOLD.name(), "16").set(IndexFsConfig.HTTP_PORT.name(), "0").start();
    try (FileSystem fs = FileSystem.newInstance(URI.create(cluster.defaultFs()), IndexFsTestCluster.conf(cluster))) {
      for (int round = 0; round < 4; round++) {
        fs.mkdirs(new org.apache.hadoop.fs.Path("/s/dir" + round));
        for (int i = 0; i < 30; i++) {
          fs.create(new org.apache.hadoop.fs.Path("/s/big/f" + round + "-" + i)).close();
        }
        fs.listStatus(new org.apache.hadoop.fs.Path("/s/big"));
        Thread.sleep(1100); // a few seconds of history for the chart
      }
    }
    for (int attempt = 0; attempt < 100 && splitter() == null; attempt++) {
      Thread.sleep(100);
    }
    for (int slot = 0; slot < cluster.serverCount(); slot++) {
      cluster.server(slot).metrics().rollWindow(); // the page shows the workload's latency percentiles
    }
  }

  private static IndexFsServer splitter() {
    for (int slot = 0; slot < cluster.serverCount(); slot++) {
      if (!cluster.server(slot).metrics().splitHistory().recent().isEmpty()) {
        return cluster.server(slot);
      }
    }
    return null;
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void statusPageShowsTheClusterInChromium() throws Exception {
    IndexFsServer server = splitter();
    assertTrue(server != null, "the directory of 120 files split");
    String url = "http://127.0.0.1:" + server.statusServer().address().getPort() + "/";
    String dom = Chromium.dumpDom(url, 5_000);

    int slot = server.namespace().slot();
    assertTrue(dom.contains("<title>IndexFS slot " + slot + " — status</title>"), dom);
    assertTrue(dom.contains("<h2>Overview</h2>"), dom);
    for (int k = 0; k < cluster.serverCount(); k++) {
      IndexFsServer s = cluster.server(k);
      String owner = s.address().getHostString() + ":" + s.address().getPort();
      String page = s.statusServer().hostPort();
      assertTrue(dom.contains("<tr><td>" + k + "</td><td>" + owner + "</td><td><a href=\"http://" + page + "/\">"),
          "slot " + k + " with its owner and status page:\n" + dom);
    }
    Matcher points = Pattern.compile("<polyline id=\"rate-line\"[^>]* points=\"([^\"]+)\"").matcher(dom);
    assertTrue(points.find(), "the rate chart:\n" + dom);
    assertTrue(points.group(1).trim().split(" ").length >= 3, "seconds of history in the chart: " + points.group(1));
    assertTrue(dom.contains("data-updated=\""), "the page's script redrew the chart from status.json:\n" + dom);
    assertTrue(dom.contains("<tr><td>create</td>"), dom);
    // The largest directory: its path when this slot holds every name and mode above it (an anonymous
    // user could list them all), else not shown; its id, and both partitions.
    long big = FileSystemIds.inodeId(cluster, "/s/big");
    Matcher row = Pattern.compile("<tr><td>([^<]*)</td><td>" + InodeIds.format(big) + "</td>.*?</tr>").matcher(dom);
    assertTrue(row.find(), "/s/big among the largest directories:\n" + dom);
    assertTrue(row.group(1).equals("/s/big") || row.group(1).equals(LargestDirectories.HIDDEN), row.group());
    assertTrue(row.group().contains("0@slot") && row.group().contains("1@slot"), "its two partitions: " + row.group());
    SplitHistory.Split split = server.metrics().splitHistory().recent().get(0);
    assertTrue(dom.contains("</td><td>" + split.child() + "</td><td>" + split.entriesMoved() + "</td><td>slot "
        + split.toSlot() + "</td>"), "the split in Recent splits:\n" + dom);
    assertTrue(dom.contains("<h2>Standbys</h2><p>none"), dom);

    Path png = Path.of("target", "surefire-reports", "status-page.png");
    Chromium.screenshot(url, png, 1100, 1500);
    byte[] head = java.util.Arrays.copyOf(Files.readAllBytes(png), 8);
    assertEquals("\u0089PNG", new String(head, 0, 4, java.nio.charset.StandardCharsets.ISO_8859_1));
    assertTrue(Files.size(png) > 20_000, "a screenshot with content: " + Files.size(png) + " bytes");
  }
}
