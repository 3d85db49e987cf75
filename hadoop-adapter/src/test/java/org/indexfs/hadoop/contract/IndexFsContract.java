package org.indexfs.hadoop.contract;

import java.io.IOException;
import java.net.URI;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.indexfs.hadoop.IndexFileSystem;
import org.indexfs.hadoop.IndexFsTestCluster;
import org.indexfs.server.local.LocalCluster;

/** The Hadoop FileSystem contract bound to an embedded cluster; options in contract/indexfs.xml. */
public class IndexFsContract extends AbstractFSContract {
  public static final String CONTRACT_XML = "contract/indexfs.xml";

  private final LocalCluster cluster;

  /** The shared cluster: small files inline, large ones in HDFS objects. */
  public IndexFsContract(Configuration conf) {
    this(conf, IndexFsTestCluster.get());
  }

  private IndexFsContract(Configuration conf, LocalCluster cluster) {
    super(conf);
    this.cluster = cluster;
    addConfResource(CONTRACT_XML);
    for (Map.Entry<String, String> e : cluster.clientConf().entrySet()) {
      conf.set(e.getKey(), e.getValue());
    }
  }

  /** A cluster without inline files: every byte the suite writes goes through an HDFS object. */
  public static IndexFsContract objectsOnly(Configuration conf) {
    return new IndexFsContract(conf, IndexFsTestCluster.objectsOnly());
  }

  @Override
  public String getScheme() {
    return IndexFileSystem.SCHEME;
  }

  @Override
  public FileSystem getTestFileSystem() throws IOException {
    return FileSystem.get(URI.create(cluster.defaultFs()), getConf());
  }

  @Override
  public Path getTestPath() {
    return new Path("/test");
  }
}
