package org.indexfs.hadoop.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileSystemContractBaseTest;
import org.indexfs.hadoop.IndexFsTestCluster;
import org.junit.jupiter.api.BeforeEach;

/** Hadoop's FileSystemContractBaseTest against indexfs://, with the umask that test expects. */
public class TestIndexFsFileSystemContract extends FileSystemContractBaseTest {
  @BeforeEach
  public void setUp() throws Exception {
    Configuration conf = IndexFsTestCluster.conf();
    conf.set("fs.permissions.umask-mode", "062");
    fs = FileSystem.newInstance(IndexFsTestCluster.uri(), conf);
  }

  @Override
  protected int getGlobalTimeout() {
    return 60_000;
  }
}
