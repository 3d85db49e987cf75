package org.indexfs.gateway.contract;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.indexfs.gateway.Gateway;
import org.indexfs.gateway.GatewayTestCluster;

/**
 * Hadoop's FileSystem contract for hdfs://<gateway>, through the stock DistributedFileSystem, with
 * HDFS's contract options (contract/hdfs-gateway.xml).
 */
public class GatewayContract extends AbstractFSContract {
  public static final String CONTRACT_XML = "contract/hdfs-gateway.xml";

  private final Gateway gateway;

  public GatewayContract(Configuration conf) {
    super(conf);
    this.gateway = GatewayTestCluster.gateway();
    addConfResource(CONTRACT_XML);
    conf.set("fs.defaultFS", gateway.uri().toString());
  }

  @Override
  public String getScheme() {
    return "hdfs";
  }

  @Override
  public FileSystem getTestFileSystem() throws IOException {
    return FileSystem.get(gateway.uri(), getConf());
  }

  @Override
  public Path getTestPath() {
    return new Path("/test");
  }
}
