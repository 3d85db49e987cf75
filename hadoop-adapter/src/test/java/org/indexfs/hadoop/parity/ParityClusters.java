package org.indexfs.hadoop.parity;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.hadoop.IndexFsTestCluster;
import org.indexfs.server.local.LocalCluster;
import org.indexfs.server.local.LocalHdfs;

/**
 * The reference and the subjects of the parity tests: an HDFS with HDFS's own defaults (one
 * NameNode, three DataNodes: minimum block size 1 MiB, access times at one hour, replication 3),
 * and IndexFS clusters of one slot and of four slots whose directories split at four entries,
 * keeping their large files on that same HDFS. Started once per test JVM, closed at its exit.
 */
public final class ParityClusters {
  private static LocalHdfs hdfs;
  private static LocalCluster oneSlot;
  private static LocalCluster fourSlots;

  private ParityClusters() {}

  public static synchronized LocalHdfs hdfs() {
    if (hdfs == null) {
      try {
        // Hadoop keeps proxy-user rules in one static table per process, which every NameNode
        // started here replaces: this one must carry the pair the shared cluster's tests rely on.
        hdfs = LocalHdfs.start(IndexFsTestCluster.newWorkDir("parity-hdfs"), LocalHdfs.DEFAULT_DATANODES,
            Map.of("hadoop.proxyuser." + IndexFsTestCluster.PROXY_USER + ".users", "alice",
                "hadoop.proxyuser." + IndexFsTestCluster.PROXY_USER + ".hosts", "*"),
            false);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      Runtime.getRuntime().addShutdownHook(new Thread(ParityClusters::shutdown, "parity-clusters-shutdown"));
    }
    return hdfs;
  }

  public static synchronized LocalCluster oneSlot() {
    if (oneSlot == null) {
      oneSlot = start("parity1", 1);
    }
    return oneSlot;
  }

  public static synchronized LocalCluster fourSlots() {
    if (fourSlots == null) {
      fourSlots = start("parity4", 4);
    }
    return fourSlots;
  }

  private static LocalCluster start(String name, int slots) {
    try {
      return LocalCluster.builder(IndexFsTestCluster.newWorkDir(name)).clusterName(name).servers(slots)
          .set(IndexFsConfig.DATA_URI.name(), hdfs().uri() + "/" + name + "-data")
          .set(IndexFsConfig.SPLIT_THRESHOLD.name(), "4")
          .start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The reference: {@code hdfs://} with its base directory. */
  public static Parity.Target hdfsTarget(String base) {
    return new Parity.Target("hdfs", hdfs().uri(), new Configuration(), new Path(base));
  }

  /** {@code indexfs://} of {@code cluster}, with the same base directory. */
  public static Parity.Target indexfsTarget(String label, LocalCluster cluster, String base) {
    return new Parity.Target(label, URI.create(cluster.defaultFs()), IndexFsTestCluster.conf(cluster), new Path(base));
  }

  private static synchronized void shutdown() {
    for (LocalCluster c : new LocalCluster[] {oneSlot, fourSlots}) {
      if (c != null) {
        c.close();
      }
    }
    if (hdfs != null) {
      hdfs.close();
    }
  }
}
