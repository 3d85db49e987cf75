package org.indexfs.bench.mdtest;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.server.local.LocalCluster;

/**
 * The systems of one comparison, on this machine and in this process: a stock HDFS NameNode with
 * one DataNode (its edit log fsynced, as in production — MiniDFSCluster skips fsync unless told),
 * and IndexFS clusters whose data tier is that same HDFS.
 */
final class BenchClusters implements AutoCloseable {
  private final MiniDFSCluster hdfs;
  private final LocalCluster indexSync;
  private final LocalCluster indexAsync;

  BenchClusters(Path work) throws IOException {
    Configuration conf = new Configuration();
    conf.set("dfs.namenode.name.dir", work.resolve("hdfs/name").toUri().toString());
    hdfs = new MiniDFSCluster.Builder(conf, work.resolve("hdfs").toFile())
        .numDataNodes(1)
        .skipFsyncForTesting(false)
        .build();
    hdfs.waitActive();
    String dataUri = hdfs.getURI().toString() + "/indexfs-data";
    indexSync = LocalCluster.builder(work.resolve("indexfs-sync")).clusterName("bench-sync")
        .set(IndexFsConfig.WAL_SYNC.name(), "true").set(IndexFsConfig.DATA_URI.name(), dataUri).start();
    indexAsync = LocalCluster.builder(work.resolve("indexfs-async")).clusterName("bench-async")
        .set(IndexFsConfig.WAL_SYNC.name(), "false").set(IndexFsConfig.DATA_URI.name(), dataUri).start();
  }

  URI hdfsUri() {
    return hdfs.getURI();
  }

  FileSystem hdfsClient() throws IOException {
    return FileSystem.newInstance(hdfs.getURI(), hdfs.getConfiguration(0));
  }

  FileSystem indexfsClient(boolean sync) throws IOException {
    LocalCluster c = sync ? indexSync : indexAsync;
    Configuration conf = new Configuration(hdfs.getConfiguration(0));
    for (Map.Entry<String, String> e : c.clientConf().entrySet()) {
      conf.set(e.getKey(), e.getValue());
    }
    return FileSystem.newInstance(URI.create(c.defaultFs()), conf);
  }

  @Override
  public void close() {
    indexAsync.close();
    indexSync.close();
    hdfs.shutdown();
  }
}
