package org.indexfs.hadoop.contract;

import java.io.IOException;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.indexfs.hadoop.IndexFileSystem;
import org.indexfs.hadoop.IndexFsTestCluster;

/** The Hadoop FileSystem contract bound to the shared embedded cluster; options in contract/indexfs.xml. */
public class IndexFsContract extends AbstractFSContract {
  public static final String CONTRACT_XML = "contract/indexfs.xml";

  public IndexFsContract(Configuration conf) {
    super(conf);
    addConfResource(CONTRACT_XML);
    for (Map.Entry<String, String> e : IndexFsTestCluster.get().clientConf().entrySet()) {
      conf.set(e.getKey(), e.getValue());
    }
  }

  @Override
  public String getScheme() {
    return IndexFileSystem.SCHEME;
  }

  @Override
  public FileSystem getTestFileSystem() throws IOException {
    return FileSystem.get(IndexFsTestCluster.uri(), getConf());
  }

  @Override
  public Path getTestPath() {
    return new Path("/test");
  }
}
