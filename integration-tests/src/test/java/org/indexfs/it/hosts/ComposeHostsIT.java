package org.indexfs.it.hosts;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.StringTokenizer;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.indexfs.client.NetHosts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 20's deployment without Docker: {@code docker/compose.yaml} and {@code docker/conf/} started
 * on network-namespace hosts ({@link ComposeHosts}) — a 3-node ZooKeeper ensemble, an HDFS NameNode
 * and three DataNodes, three slots with a hot standby each — and the compose file's client script
 * ({@code docker/client-demo.sh}) run on the client's host: {@code hadoop fs}, a MapReduce
 * wordcount and an audit-log replay against {@code indexfs://prod/}. The test then checks from
 * outside what the client did: the files' bytes, the wordcount's counts, the large file's object
 * on HDFS with a replica on each DataNode, fsck healthy, every slot with its standby.
 */
class ComposeHostsIT {
  static final Path REPO = Path.of("..").toAbsolutePath().normalize();

  @Test
  @Timeout(value = 15, unit = TimeUnit.MINUTES)
  void theComposeDeploymentRunsOnNetworkNamespaceHosts() throws Exception {
    assumeTrue(NetHosts.available(), "needs root and ip netns (network namespaces) to build the hosts");
    Path work = Files.createTempDirectory(Files.createDirectories(Path.of("target", "compose-hosts")), "run");
    long t0 = System.nanoTime();
    try (ComposeHosts cluster = new ComposeHosts(REPO, work.toAbsolutePath())) {
      cluster.start();
      double up = (System.nanoTime() - t0) / 1e9;
      long t1 = System.nanoTime();
      HostProcess client = cluster.runClient("client", 600_000);
      double demo = (System.nanoTime() - t1) / 1e9;
      String out = String.join("\n", client.lines());
      assertEquals(0, client.exitValue(), "docker/client-demo.sh failed; see " + client.log());

      try (FileSystem fs = cluster.asHadoop(URI.create("indexfs://prod/"), cluster.clientConf());
           FileSystem hdfs = cluster.hdfs(cluster.hdfsConf())) {
        // hadoop fs -put: the bytes, small (inline) and large (an object on the DataNodes).
        byte[] words = Files.readAllBytes(REPO.resolve("conf/log4j.properties"));
        assertArrayEquals(words, read(fs, "/demo/in/words.txt"));
        String examples = out.lines().filter(l -> l.contains("/demo/big/examples.jar")).findFirst().orElseThrow();
        long bigLength = fs.getFileStatus(new org.apache.hadoop.fs.Path("/demo/big/examples.jar")).getLen();
        assertTrue(bigLength > 100_000, examples);
        Set<String> datanodes = new HashSet<>();
        for (ComposeFile.Service s : cluster.services("apache/hadoop")) {
          if (s.command().contains("datanode")) {
            datanodes.add(cluster.ip(s.name()));
          }
        }
        boolean objectFound = false;
        RemoteIterator<LocatedFileStatus> objects = hdfs.listFiles(new org.apache.hadoop.fs.Path("/indexfs-data"), true);
        while (objects.hasNext()) {
          LocatedFileStatus o = objects.next();
          if (o.getLen() == bigLength && !o.getPath().toString().contains("/.journal/")) {
            objectFound = true;
            for (BlockLocation b : o.getBlockLocations()) {
              Set<String> on = new HashSet<>();
              for (String n : b.getNames()) {
                on.add(n.substring(0, n.indexOf(':')));
              }
              assertEquals(datanodes, on, "a replica of each block on each DataNode host");
            }
          }
        }
        assertTrue(objectFound, "the large file's object is on HDFS under /indexfs-data");
        assertTrue(hdfs.exists(new org.apache.hadoop.fs.Path("/indexfs-data/.journal")), "the slots journal on HDFS");

        // wordcount: the counts the example must have found.
        Map<String, Integer> expected = new TreeMap<>();
        StringTokenizer tokens = new StringTokenizer(new String(words, StandardCharsets.UTF_8));
        while (tokens.hasMoreTokens()) {
          expected.merge(tokens.nextToken(), 1, Integer::sum);
        }
        Map<String, Integer> counted = new TreeMap<>();
        for (String line : new String(read(fs, "/demo/out/part-r-00000"), StandardCharsets.UTF_8).split("\n")) {
          int tab = line.lastIndexOf('\t');
          counted.put(line.substring(0, tab), Integer.parseInt(line.substring(tab + 1)));
        }
        assertEquals(expected, counted);
        assertTrue(fs.exists(new org.apache.hadoop.fs.Path("/demo/out/_SUCCESS")));

        // The replay ran against indexfs://prod/ below /demo/replay, and fsck found the namespace healthy.
        assertTrue(fs.exists(new org.apache.hadoop.fs.Path("/demo/replay")), "the replay's namespace");
        assertTrue(out.contains("is HEALTHY"), "admin -fsck / reports a healthy namespace");
        assertTrue(out.contains(" 0 replayed records differ from what the trace implies"), "the replay saw HDFS's answers");
        assertTrue(out.contains("Slots: 3 (3 served)") && out.contains("Standbys: 3"), "admin -report: every slot"
            + " served, with its standby");
        System.out.printf("Compose topology on %d network-namespace hosts: up in %.1f s; client (hadoop fs, wordcount"
            + " of %d words, replay of 2000 records, admin -report, -fsck) %.1f s; %d-byte object with its blocks on %s%n",
            cluster.hosts.count(), up, expected.values().stream().mapToInt(Integer::intValue).sum(), demo, bigLength,
            datanodes);
        System.out.println(out.lines().filter(l -> !l.startsWith("20")).reduce("", (a, b) -> a + b + "\n"));
      }
    }
  }

  static byte[] read(FileSystem fs, String path) throws Exception {
    try (InputStream in = fs.open(new org.apache.hadoop.fs.Path(path))) {
      return in.readAllBytes();
    }
  }
}
