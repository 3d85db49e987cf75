package org.indexfs.hadoop.parity;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.hadoop.IndexFsTestCluster;
import org.indexfs.server.local.LocalCluster;

/**
 * HDFS and IndexFS side by side for parity tests: a MiniDFSCluster of its own (so it can carry the
 * settings a scenario needs, like HDFS's own test bases do) and IndexFS clusters on one slot and on
 * four (splitting directories at a handful of entries), set up alike. A scenario runs on each and
 * the transcripts must be the same.
 */
public final class SideBySideClusters implements AutoCloseable {
  /** What a parity test does, the same on every side. */
  @FunctionalInterface
  public interface Scenario {
    void run(Side side, Path base, Transcript t) throws Exception;
  }

  /**
   * The groups of the parity tests' users, as IndexFS servers resolve them (they ignore the groups
   * a client sends, as a NameNode does); the reference NameNode learns the same ones from
   * {@code UserGroupInformation.createUserForTesting} in this JVM. A test may pass its own
   * {@link IndexFsTestCluster#GROUP_MAPPING_KEY} in its IndexFS settings.
   */
  static final String PARITY_GROUPS = "alice=alicegroup;bob=groupY,groupZ;super=supergroup;user=mygroup;bruce=;diana=";

  private final MiniDFSCluster hdfs;
  private final List<LocalCluster> indexfs = new ArrayList<>();
  private final Map<String, Side> sides = new LinkedHashMap<>();

  /**
   * {@code hdfsSettings}: dfs.* keys for the reference NameNode; {@code indexSettings}: the same
   * limits as indexfs.* keys for the IndexFS servers; {@code slots}: the IndexFS clusters to start.
   */
  public SideBySideClusters(String name, Map<String, String> hdfsSettings, Map<String, String> indexSettings,
      int... slots) throws IOException {
    Configuration conf = new HdfsConfiguration();
    // A NameNode sets the JVM-wide proxy-user rules when it starts: the same ones as the shared
    // test HDFS, so starting this one does not change what the identity tests see there.
    conf.set("hadoop.proxyuser." + IndexFsTestCluster.PROXY_USER + ".users", "alice");
    conf.set("hadoop.proxyuser." + IndexFsTestCluster.PROXY_USER + ".hosts", "*");
    hdfsSettings.forEach(conf::set);
    File dir = IndexFsTestCluster.newWorkDir(name + "-reference").toFile();
    hdfs = new MiniDFSCluster.Builder(conf, dir).numDataNodes(1).build();
    try {
      hdfs.waitActive();
      Configuration client = new Configuration(hdfs.getConfiguration(0));
      sides.put("hdfs", new Side("hdfs", hdfs.getURI(), client));
      for (int n : slots) {
        String cluster = name + n;
        LocalCluster.Builder b = LocalCluster.builder(IndexFsTestCluster.newWorkDir(cluster)).clusterName(cluster)
            .servers(n).set(IndexFsConfig.DATA_URI.name(), IndexFsTestCluster.hdfs().uri() + "/" + cluster + "-data")
            .set(IndexFsConfig.HTTP_PORT.name(), "-1")
            .set(IndexFsTestCluster.GROUP_MAPPING_KEY, PARITY_GROUPS);
        if (n > 1) {
          b.set(IndexFsConfig.SPLIT_THRESHOLD.name(), "4");
        }
        indexSettings.forEach(b::set);
        LocalCluster c = b.start();
        indexfs.add(c);
        Configuration ic = IndexFsTestCluster.conf(c);
        hdfsSettings.forEach((k, v) -> {
          if (k.startsWith("fs.")) {
            ic.set(k, v);
          }
        });
        // Files get the replication the reference cluster's clients use.
        ic.set("dfs.replication", client.get("dfs.replication", "3"));
        if (hdfsSettings.containsKey("dfs.blocksize")) {
          ic.set("dfs.blocksize", hdfsSettings.get("dfs.blocksize"));
        }
        sides.put("indexfs-" + n + "-slot" + (n == 1 ? "" : "s"), new Side("indexfs-" + n, URI.create(c.defaultFs()), ic));
      }
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
  }

  public MiniDFSCluster hdfs() {
    return hdfs;
  }

  public List<LocalCluster> indexfs() {
    return indexfs;
  }

  public Map<String, Side> sides() {
    return sides;
  }

  /** Runs {@code scenario} on HDFS and on every IndexFS cluster; every transcript must equal HDFS's. */
  public List<String> compare(String test, Scenario scenario) throws Exception {
    List<String> reference = null;
    for (Side side : sides.values()) {
      Transcript t = new Transcript();
      scenario.run(side, side.base(test), t);
      if (reference == null) {
        reference = t.lines();
        keep(test, reference);
      } else {
        assertEquals(String.join("\n", reference), String.join("\n", t.lines()), test + " on " + side.name());
      }
    }
    return reference;
  }

  /** HDFS's transcript, kept under target/parity-transcripts for whoever wants to read what was compared. */
  private static void keep(String test, List<String> lines) throws IOException {
    java.nio.file.Path dir = java.nio.file.Path.of("target", "parity-transcripts");
    java.nio.file.Files.createDirectories(dir);
    java.nio.file.Files.writeString(dir.resolve(test + ".txt"), String.join("\n", lines) + "\n");
  }

  @Override
  public void close() {
    for (Side s : sides.values()) {
      try {
        s.close();
      } catch (IOException e) {
        // closing clients of clusters going away
      }
    }
    for (LocalCluster c : indexfs) {
      c.close();
    }
    if (hdfs != null) {
      hdfs.shutdown(true);
    }
  }
}
