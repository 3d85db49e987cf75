package org.indexfs.it;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.server.local.LocalCluster;
import org.indexfs.server.local.LocalHdfs;

/**
 * What the jobs run against: one real HDFS (a MiniDFSCluster, one NameNode and three DataNodes, its
 * edit log fsynced) and an embedded IndexFS cluster whose data objects live on that same HDFS. So
 * {@code indexfs://} and {@code hdfs://} share one data tier and differ only in who owns the
 * namespace, which is the comparison the job timings make.
 */
public final class JobCluster implements AutoCloseable {
  private final LocalHdfs hdfs;
  private final LocalCluster indexfs;

  private JobCluster(LocalHdfs hdfs, LocalCluster indexfs) {
    this.hdfs = hdfs;
    this.indexfs = indexfs;
  }

  public static JobCluster start(Path workDir) throws IOException {
    LocalHdfs hdfs = LocalHdfs.start(workDir.resolve("hdfs"), LocalHdfs.DEFAULT_DATANODES, Map.of(), false);
    try {
      LocalCluster indexfs = LocalCluster.builder(workDir.resolve("indexfs")).clusterName("jobs")
          .set(IndexFsConfig.DATA_URI.name(), hdfs.uri() + "/indexfs-data")
          .start();
      return new JobCluster(hdfs, indexfs);
    } catch (IOException | RuntimeException e) {
      hdfs.close();
      throw e;
    }
  }

  /** {@code indexfs://jobs/}. */
  public URI indexfsUri() {
    return URI.create(indexfs.defaultFs());
  }

  /** {@code hdfs://localhost:<port>/}: the same HDFS IndexFS keeps its objects on. */
  public URI hdfsUri() {
    return URI.create(hdfs.uri() + "/");
  }

  /** The Hadoop settings a client of {@code target} needs: {@code fs.defaultFS} and, for IndexFS, ZooKeeper. */
  public Map<String, String> clientConf(Target target) {
    Map<String, String> conf = new LinkedHashMap<>();
    if (target == Target.INDEXFS) {
      conf.putAll(indexfs.clientConf());
    } else {
      conf.put("fs.defaultFS", hdfsUri().toString());
    }
    return conf;
  }

  @Override
  public void close() {
    indexfs.close();
    hdfs.close();
  }

  /** The two namespaces a job can run on. */
  public enum Target {
    INDEXFS("indexfs"), HDFS("hdfs");

    private final String label;

    Target(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }
}
