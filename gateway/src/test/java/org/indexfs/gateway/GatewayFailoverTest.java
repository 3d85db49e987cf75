package org.indexfs.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.Test;

/**
 * Two gateways are one HA nameservice, as two NameNodes are: stock clients configured with
 * {@code dfs.ha.namenodes.<ns>} and {@code ConfiguredFailoverProxyProvider} write files (each under a
 * temporary name, then renamed into place) while one
 * gateway or the other is killed with SIGKILL three times (and started again). Every call the
 * application makes succeeds, and every file it closed is there with its bytes: retried calls are
 * answered from IndexFS's retry cache under the names the client gave them, whichever gateway
 * takes the retry.
 */
class GatewayFailoverTest {
  static final String NAMESERVICE = "gws";
  private static final int WRITERS = 4;

  /** A stock HDFS client configuration for the nameservice of {@code gateways}. */
  static Configuration nameserviceConf(GatewayProcess... gateways) {
    Configuration conf = new Configuration(false);
    conf.addResource("core-default.xml");
    conf.set("fs.defaultFS", "hdfs://" + NAMESERVICE);
    conf.set("dfs.nameservices", NAMESERVICE);
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < gateways.length; i++) {
      ids.add("g" + i);
      conf.set("dfs.namenode.rpc-address." + NAMESERVICE + ".g" + i, "127.0.0.1:" + gateways[i].port());
    }
    conf.set("dfs.ha.namenodes." + NAMESERVICE, String.join(",", ids));
    conf.set("dfs.client.failover.proxy.provider." + NAMESERVICE,
        "org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider");
    // Fail over at once when a gateway does not answer, and keep trying the pair for a while.
    conf.setInt("ipc.client.connect.max.retries", 1);
    conf.setInt("ipc.client.connect.max.retries.on.timeouts", 1);
    conf.setInt("dfs.client.failover.max.attempts", 40);
    conf.setInt("dfs.client.failover.sleep.base.millis", 100);
    conf.setInt("dfs.client.failover.sleep.max.millis", 1000);
    conf.setLong("dfs.blocksize", 1024 * 1024);
    return conf;
  }

  static Map<String, String> gatewaySettings(LocalCluster c) {
    Map<String, String> s = new java.util.HashMap<>();
    s.put("indexfs.cluster.name", c.clusterName());
    s.put("indexfs.cluster." + c.clusterName() + ".zookeeper", c.zookeeperConnect());
    return s;
  }

  @Test
  void threeKillsUnderAWriteWorkloadCostNoErrorAndNoFile() throws Exception {
    LocalCluster cluster = GatewayTestCluster.indexfs();
    java.nio.file.Path work = org.indexfs.hadoop.IndexFsTestCluster.newWorkDir("failover");
    Map<String, String> settings = gatewaySettings(cluster);
    try (GatewayProcess g0 = new GatewayProcess("g0", settings, work);
        GatewayProcess g1 = new GatewayProcess("g1", settings, work)) {
      g0.start();
      g1.start();
      Configuration conf = nameserviceConf(g0, g1);
      AtomicBoolean stop = new AtomicBoolean();
      AtomicInteger written = new AtomicInteger();
      ConcurrentLinkedQueue<String> closed = new ConcurrentLinkedQueue<>();
      ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
      ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        writers.add(pool.submit(() -> {
          try (FileSystem fs = FileSystem.newInstance(conf)) {
            fs.mkdirs(new org.apache.hadoop.fs.Path("/failover/w" + writer));
            for (int i = 0; !stop.get(); i++) {
              String name = "/failover/w" + writer + "/f" + i;
              // Written under a temporary name and renamed into place, as job commits do: a rename
              // whose answer dies with its gateway must be answered "true" again, not run again.
              org.apache.hadoop.fs.Path temporary = new org.apache.hadoop.fs.Path(name + ".tmp");
              try (FSDataOutputStream out = fs.create(temporary)) {
                out.write(content(name));
              }
              if (!fs.rename(temporary, new org.apache.hadoop.fs.Path(name))) {
                throw new IOException("rename of " + temporary + " answered false");
              }
              closed.add(name);
              written.incrementAndGet();
            }
          } catch (Throwable t) {
            errors.add(t);
          }
          return null;
        }));
      }
      GatewayProcess[] victims = {g0, g1, g0};
      for (GatewayProcess victim : victims) {
        int before = written.get();
        waitFor(() -> written.get() >= before + 20 || !errors.isEmpty());
        victim.kill();
        int atKill = written.get();
        // The survivor alone must carry the workload on.
        waitFor(() -> written.get() >= atKill + 20 || !errors.isEmpty());
        victim.start();
      }
      int last = written.get();
      waitFor(() -> written.get() >= last + 20 || !errors.isEmpty());
      stop.set(true);
      for (Future<?> f : writers) {
        f.get(5, TimeUnit.MINUTES);
      }
      pool.shutdown();
      assertThat(errors).as("errors the application saw").isEmpty();
      System.out.println("Failover: 3 kills, " + closed.size() + " files written, 0 errors");
      try (FileSystem viaGateways = FileSystem.newInstance(conf);
          FileSystem indexfs = GatewayTestCluster.indexfsFileSystem(cluster)) {
        for (String name : closed) {
          for (FileSystem fs : new FileSystem[] {viaGateways, indexfs}) {
            // Arrays.equals, not assertj's isEqualTo: that compares arrays element by element through
            // reflection, minutes for these files on a busy CI machine.
            assertThat(java.util.Arrays.equals(read(fs, name), content(name))).as("%s through %s is what was written",
                name, fs.getUri()).isTrue();
          }
        }
      }
    }
  }

  static byte[] content(String name) {
    Random r = new Random(name.hashCode());
    byte[] b = new byte[1024 * 1024 + r.nextInt(512 * 1024)]; // two blocks of 1 MiB
    r.nextBytes(b);
    return b;
  }

  static byte[] read(FileSystem fs, String name) throws IOException {
    try (FSDataInputStream in = fs.open(new org.apache.hadoop.fs.Path(name))) {
      return in.readAllBytes();
    }
  }

  interface Condition {
    boolean holds() throws Exception;
  }

  static void waitFor(Condition c) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (!c.holds()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("Timed out waiting for the workload to progress");
      }
      Thread.sleep(50);
    }
  }
}
