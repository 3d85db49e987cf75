package org.indexfs.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.Writer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.hadoop.IndexFsTestCluster;
import org.indexfs.server.IndexFsServer;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/indexfs server --slot 1 ... -D indexfs.server.gateway.enabled=true}: the slot server's
 * own JVM also answers hdfs:// clients. A two-slot cluster runs slot 0 here and slot 1 in a child
 * {@link IndexFsServer} process with the gateway on; the stock DistributedFileSystem writes and
 * reads through that process's gateway and sees what indexfs:// sees.
 */
class GatewayInServerProcessTest {
  @Test
  void aSlotServerProcessServesHdfsClientsWhenAskedTo() throws Exception {
    String me = GatewayTestCluster.login();
    Path work = IndexFsTestCluster.newWorkDir("gw-in-server");
    try (LocalCluster cluster = LocalCluster.builder(work.resolve("cluster")).clusterName("gwserver").slots(2)
        .servers(1)
        .set(IndexFsConfig.DATA_URI.name(), IndexFsTestCluster.hdfs().uri() + "/gwserver-data")
        .set(IndexFsConfig.MIN_BLOCK_SIZE.name(), "0")
        .set("hadoop.proxyuser." + me + ".hosts", "*").set("hadoop.proxyuser." + me + ".groups", "*")
        .start()) {
      List<String> command = new ArrayList<>(List.of(
          Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-XX:+UseSerialGC",
          "-Djava.net.preferIPv4Stack=true", "-cp", System.getProperty("java.class.path"),
          IndexFsServer.class.getName(), "--slot", "1", "--dir", work.resolve("slot-1").toString(),
          "--zookeeper", cluster.zookeeperConnect(), "--cluster", cluster.clusterName(),
          "--data-uri", cluster.dataUri()));
      for (Map.Entry<String, String> e : Map.of(
          IndexFsConfig.SECURITY_ZOOKEEPER_DIGEST.name(), cluster.zookeeperDigest(),
          IndexFsConfig.SERVER_BIND_HOST.name(), "127.0.0.1",
          IndexFsConfig.SERVER_GATEWAY_ENABLED.name(), "true",
          IndexFsConfig.GATEWAY_BIND_HOST.name(), "127.0.0.1",
          IndexFsConfig.GATEWAY_PORT.name(), "0",
          IndexFsConfig.MIN_BLOCK_SIZE.name(), "0",
          "hadoop.proxyuser." + me + ".hosts", "*",
          "hadoop.proxyuser." + me + ".groups", "*").entrySet()) {
        command.addAll(List.of("-D", e.getKey() + "=" + e.getValue()));
      }
      Path log = work.resolve("slot-1.log");
      Process server = new ProcessBuilder(command).redirectErrorStream(true).start();
      try {
        URI gateway = URI.create(awaitGateway(server, log).get(120, TimeUnit.SECONDS));
        assertThat(gateway.getScheme()).isEqualTo("hdfs");

        Configuration conf = new Configuration(false);
        conf.addResource("core-default.xml");
        conf.setLong("dfs.blocksize", 1024 * 1024);
        byte[] bytes = new byte[300_000]; // past the inline limit: blocks on the data tier's DataNodes
        new Random(7).nextBytes(bytes);
        try (FileSystem hdfs = FileSystem.newInstance(gateway, conf);
            FileSystem indexfs = GatewayTestCluster.indexfsFileSystem(cluster)) {
          assertThat(hdfs).isInstanceOf(DistributedFileSystem.class);
          for (int d = 0; d < 8; d++) { // spread over both slots
            org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path("/in-server/d" + d);
            assertThat(hdfs.mkdirs(dir)).isTrue();
            try (FSDataOutputStream out = hdfs.create(new org.apache.hadoop.fs.Path(dir, "f"))) {
              out.write(bytes);
            }
          }
          for (int d = 0; d < 8; d++) {
            org.apache.hadoop.fs.Path f = new org.apache.hadoop.fs.Path("/in-server/d" + d + "/f");
            try (var in = hdfs.open(f)) {
              assertArrayEquals(bytes, in.readAllBytes(), f.toString());
            }
            FileStatus direct = indexfs.getFileStatus(f);
            assertEquals(bytes.length, direct.getLen());
            assertEquals(direct.getModificationTime(), hdfs.getFileStatus(f).getModificationTime());
          }
          assertEquals(8, hdfs.listStatus(new org.apache.hadoop.fs.Path("/in-server")).length);
        }
      } finally {
        server.destroy();
        if (!server.waitFor(30, TimeUnit.SECONDS)) {
          server.destroyForcibly().waitFor();
        }
      }
    }
  }

  /** Copies the child's output to {@code log} and completes with the URI of its INDEXFS_GATEWAY_READY line. */
  private static CompletableFuture<String> awaitGateway(Process server, Path log) {
    CompletableFuture<String> ready = new CompletableFuture<>();
    Thread pump = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
          Writer out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
        String line;
        while ((line = in.readLine()) != null) {
          out.write(line + "\n");
          out.flush();
          if (line.startsWith("INDEXFS_GATEWAY_READY ")) {
            ready.complete(line.substring("INDEXFS_GATEWAY_READY ".length()).trim());
          }
        }
        ready.completeExceptionally(new java.io.IOException("Server exited with " + server.waitFor() + "; log " + log
            + ":\n" + Files.readString(log)));
      } catch (Exception e) {
        ready.completeExceptionally(e);
      }
    }, "slot-1-output");
    pump.setDaemon(true);
    pump.start();
    return ready;
  }
}
