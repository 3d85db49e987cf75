package org.indexfs.gateway.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileSystemContractBaseTest;
import org.indexfs.gateway.GatewayTestCluster;
import org.junit.jupiter.api.BeforeEach;

/** Hadoop's FileSystemContractBaseTest on hdfs://<gateway>, with the umask that test expects (as HDFS's). */
public class TestGatewayFileSystemContract extends FileSystemContractBaseTest {
  @BeforeEach
  public void setUp() throws Exception {
    Configuration conf = GatewayTestCluster.clientConf(GatewayTestCluster.gateway());
    conf.set("fs.permissions.umask-mode", "062");
    fs = FileSystem.newInstance(GatewayTestCluster.gateway().uri(), conf);
  }

  @Override
  protected int getGlobalTimeout() {
    return 60_000;
  }
}
